# 6.1 has no kzalloc_obj(): the new files use kzalloc() there
s/kzalloc_obj(\*\([a-z_]*\))/kzalloc(sizeof(*\1), GFP_KERNEL)/g
# 6.1 has no KUnit static stubs (and so no KUnit suite): mlx5_pg_cmd() calls the firmware directly
/^#include <kunit\/static_stub.h>$/d
/^\tKUNIT_STATIC_STUB_REDIRECT(mlx5_pg_cmd,/,/^$/d

# 6.12 has no kzalloc_obj(): the new files use kzalloc() there
s/kzalloc_obj(\*\([a-z_]*\))/kzalloc(sizeof(*\1), GFP_KERNEL)/g

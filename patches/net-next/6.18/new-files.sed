# 6.18 has no kzalloc_obj(): the new files use kzalloc() there
s/kzalloc_obj(\*\([a-z_]*\))/kzalloc(sizeof(*\1), GFP_KERNEL)/g
# 6.18's KUnit has no kunit_warning_suppress(): the WARN a case expects is printed there (6.18's
# KUnit kernel has no console check, lib.sh suppresses_warnings) and not counted
s/^\(\t*\)kunit_warning_suppress(test) {$/\1{/
s/KUNIT_EXPECT_SUPPRESSED_WARNING_COUNT(test, \(.*\));$/(void)(\1);/

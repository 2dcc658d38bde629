# SPDX-License-Identifier: GPL-2.0
# TOOL.8 from TOOL's --help, made by man.sh: each tools/*/Makefile includes this and lists its
# pages (a tool kept elsewhere is found through vpath, as steer-persist finds
# tools/flexl4/flexl4-loaded). Each tool's tests check its pages with 'man.sh check'.
%.8: % ../common/man.sh ../VERSION
	./$< --help | sh ../common/man.sh $(notdir $<) 8 "$$(./$< --version)" >$@

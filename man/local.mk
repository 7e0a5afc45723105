# man/local.mk: the manual pages of the installed programs (tools/), no
# floor: rslc, rslvm, rsldb, rtrender and ribinfo. scripts/check-manpages
# (make check) keeps them in step with each program's --help.

dist_man1_MANS = man/rslc.1 man/rslvm.1 man/rsldb.1 man/rtrender.1 man/ribinfo.1

TESTS += scripts/check-manpages
EXTRA_DIST += scripts/check-manpages

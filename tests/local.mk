# tests/local.mk: end-to-end tests of the rslc driver (added with the driver).

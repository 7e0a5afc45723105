# rtcore/local.mk: the rtcore library, its tests and tools (owned by the rtcore work).

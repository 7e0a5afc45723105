# shaders/local.mk: the standard shader library (RISpec 3.2 Appendix A),
# RSL sources, no floor: data that rtrender compiles on first use. They
# install under $(pkgdatadir)/shaders, where an installed rtrender looks
# for them (render/shaderpath.c), and go into the tarball with them.

shadersdir = $(pkgdatadir)/shaders
dist_shaders_DATA = \
	shaders/ambientlight.sl \
	shaders/arealight.sl \
	shaders/background.sl \
	shaders/bumpy.sl \
	shaders/constant.sl \
	shaders/defaultsurface.sl \
	shaders/depthcue.sl \
	shaders/distantlight.sl \
	shaders/envlight.sl \
	shaders/fog.sl \
	shaders/glass.sl \
	shaders/matte.sl \
	shaders/metal.sl \
	shaders/mirror.sl \
	shaders/null.sl \
	shaders/paintedplastic.sl \
	shaders/plastic.sl \
	shaders/pointlight.sl \
	shaders/shadowspot.sl \
	shaders/shinymetal.sl \
	shaders/spotlight.sl

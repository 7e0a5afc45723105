/* Message passing test: a displacement that moves nothing and leaves
   amp = x * 0.5 + 0.5 (camera space) for the surface to read. */
displacement msgdisp(output varying float amp = 0) { amp = xcomp(P) * 0.5 + 0.5; }

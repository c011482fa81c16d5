// Gather: the element at the interpolated coordinate T0 (optionally swizzled .yx).
uniform samplerRECT S0;
in vec3 T0;
out float result;

void main() {
#ifdef SWIZZLE_YX
    result = texRECT(S0, T0.yx).r;
#else
    result = texRECT(S0, T0.xy).r;
#endif
}

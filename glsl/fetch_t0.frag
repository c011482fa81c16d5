// Gather: the element at the interpolated coordinate T0 (optionally swizzled .yx).
uniform sampler2DRect S0;
in vec3 T0;
out float result;

void main() {
#ifdef SWIZZLE_YX
    result = texture(S0, T0.yx).r;
#else
    result = texture(S0, T0.xy).r;
#endif
}

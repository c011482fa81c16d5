// Kernels 2 and 3 (2008 IPM paper): f(i) - f(k) * L(., .). T0 holds the index of f(k); T1 the
// index of the entry of L, swizzled when the factor's column runs down while f runs right.
uniform samplerRECT S0; // f
uniform samplerRECT S1; // L
in vec3 T0;
in vec3 T1;
out float result;

void main() {
#ifdef SWIZZLE_YX
    float l = texRECT(S1, T1.yx).r;
#else
    float l = texRECT(S1, T1.xy).r;
#endif
    result = texRECT(S0, gl_FragCoord.xy).r - texRECT(S0, T0.xy).r * l;
}

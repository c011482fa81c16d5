// Kernel 5: the outer-product update L(i,j) - L(i,k) * L(j,k) at fragment (j, i).
// Index sources:
//   default         T0 = (k+.5, i) is the neighbour, T1 = (j, k+.5) swizzled .yx is the pivot;
//   TRIAD           one triad T0 = (j, i, k+.5): neighbour .zy, pivot .zx (2006 paper Fig. 5c);
//   COMPUTED_INDEX  neighbour from T0, pivot index computed from it and the fragment position.
uniform samplerRECT S0;
in vec3 T0;
in vec3 T1;
out float result;

void main() {
    float self = texRECT(S0, gl_FragCoord.xy).r;
#if defined(TRIAD)
    float neighbour = texRECT(S0, T0.zy).r;
    float pivot = texRECT(S0, T0.zx).r;
#elif defined(COMPUTED_INDEX)
    float neighbour = texRECT(S0, T0.xy).r;
    float pivot = texRECT(S0, vec2(T0.x, gl_FragCoord.x)).r;
#else
    float neighbour = texRECT(S0, T0.xy).r;
    float pivot = texRECT(S0, T1.yx).r;
#endif
    result = self - neighbour * pivot;
}

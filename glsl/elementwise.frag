// Element-wise operations on vectors stored as w×1 textures (entry i at texel (i, 0)).
uniform samplerRECT S0; // x
uniform samplerRECT S1; // y
uniform float alpha;
uniform float beta;
out float result;

void main() {
    float x = texRECT(S0, gl_FragCoord.xy).r;
#if defined(AXPBY)
    result = alpha * x + beta * texRECT(S1, gl_FragCoord.xy).r;
#elif defined(MUL)
    result = x * texRECT(S1, gl_FragCoord.xy).r;
#elif defined(DIV)
    result = x / texRECT(S1, gl_FragCoord.xy).r;
#elif defined(AFFINE)
    result = alpha * x + beta;
#endif
}

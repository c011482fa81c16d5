// Element-wise operations on vectors stored as w×1 textures (entry i at texel (i, 0)).
uniform sampler2DRect S0; // x
uniform sampler2DRect S1; // y
uniform float alpha;
uniform float beta;
out float result;

void main() {
    float x = texture(S0, gl_FragCoord.xy).r;
#if defined(AXPBY)
    result = alpha * x + beta * texture(S1, gl_FragCoord.xy).r;
#elif defined(MUL)
    result = x * texture(S1, gl_FragCoord.xy).r;
#elif defined(DIV)
    result = x / texture(S1, gl_FragCoord.xy).r;
#elif defined(AFFINE)
    result = alpha * x + beta;
#endif
}

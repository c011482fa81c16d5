// Element-wise operations on vectors of four entries per texel (entry 4t + c at channel c of
// texel (t, 0)): AXPBY alpha x + beta y, MUL x y, DIV x / y, AFFINE alpha x + beta. Lanes at or
// past `len` are written as zero, so padding never turns into NaN (0 / 0) downstream.
uniform samplerRECT S0; // x
uniform samplerRECT S1; // y
uniform float alpha;
uniform float beta;
uniform float len;
out vec4 result;

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    vec4 x = texelAt(S0, g);
#if defined(AXPBY)
    vec4 r = alpha * x + beta * texelAt(S1, g);
#elif defined(MUL)
    vec4 r = x * texelAt(S1, g);
#elif defined(DIV)
    vec4 r = x / texelAt(S1, g);
#elif defined(AFFINE)
    vec4 r = alpha * x + beta;
#endif
    float e = float(4 * g.x);
    result = vec4(e < len ? r.x : 0.0, e + 1.0 < len ? r.y : 0.0, e + 2.0 < len ? r.z : 0.0, e + 3.0 < len ? r.w : 0.0);
}

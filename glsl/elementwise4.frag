// Element-wise operations on vectors of four entries per texel (entry 4t + c at channel c of
// texel (t, 0)): AXPBY alpha x + beta y, MUL x y, DIV x / y, AFFINE alpha x + beta. Lanes at or
// past `len` are written as zero, so padding never turns into NaN (0 / 0) downstream.
uniform sampler2DRect S0; // x
uniform sampler2DRect S1; // y
uniform float alpha;
uniform float beta;
uniform float len;
out vec4 result;

// texture() at the texel's centre: on llvmpipe cheaper than texelFetch (about 2x measured).
vec4 at(sampler2DRect s, ivec2 p) {
    return texture(s, vec2(p) + 0.5);
}

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    vec4 x = at(S0, g);
#if defined(AXPBY)
    vec4 r = alpha * x + beta * at(S1, g);
#elif defined(MUL)
    vec4 r = x * at(S1, g);
#elif defined(DIV)
    vec4 r = x / at(S1, g);
#elif defined(AFFINE)
    vec4 r = alpha * x + beta;
#endif
    float e = float(4 * g.x);
    result = vec4(e < len ? r.x : 0.0, e + 1.0 < len ? r.y : 0.0, e + 2.0 < len ? r.z : 0.0, e + 3.0 < len ? r.w : 0.0);
}

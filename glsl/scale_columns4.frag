// B = A D^2 for A stored as runs of four columns (texel (K, i) = A(i, 4K..4K+3)) and d^2 four
// per texel: one multiply per entry, so that the assembly reads two operands, not three.
uniform sampler2DRect S0; // A
uniform sampler2DRect S1; // d^2
out vec4 result;

// texture() at the texel's centre: on llvmpipe cheaper than texelFetch (about 2x measured).
vec4 at(sampler2DRect s, ivec2 p) {
    return texture(s, vec2(p) + 0.5);
}

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    result = at(S0, g) * at(S1, ivec2(g.x, 0));
}

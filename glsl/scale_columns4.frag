// B = A D^2 for A stored as runs of four columns (texel (K, i) = A(i, 4K..4K+3)) and d^2 four
// per texel: one multiply per entry, so that the assembly reads two operands, not three.
uniform samplerRECT S0; // A
uniform samplerRECT S1; // d^2
out vec4 result;

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    result = texelAt(S0, g) * texelAt(S1, ivec2(g.x, 0));
}

// The diagonal of a matrix in 2x2 blocks as a vector, four entries per texel: texel t holds
// a(4t, 4t), a(4t+1, 4t+1) (block (2t, 2t)) and a(4t+2, 4t+2), a(4t+3, 4t+3) (block (2t+1, 2t+1)).
uniform samplerRECT S0;
out vec4 result;

void main() {
    int t = int(gl_FragCoord.x);
    vec4 a = texelAt(S0, ivec2(2 * t, 2 * t));
    vec4 b = texelAt(S0, ivec2(2 * t + 1, 2 * t + 1));
    result = vec4(a.x, a.w, b.x, b.w);
}

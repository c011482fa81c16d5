// The diagonal of a matrix in 2x2 blocks as a vector, four entries per texel: texel t holds
// a(4t, 4t), a(4t+1, 4t+1) (block (2t, 2t)) and a(4t+2, 4t+2), a(4t+3, 4t+3) (block (2t+1, 2t+1)).
uniform sampler2DRect S0;
out vec4 result;

// texture() at the texel's centre: on llvmpipe cheaper than texelFetch (about 2x measured).
vec4 at(sampler2DRect s, ivec2 p) {
    return texture(s, vec2(p) + 0.5);
}

void main() {
    int t = int(gl_FragCoord.x);
    vec4 a = at(S0, ivec2(2 * t, 2 * t));
    vec4 b = at(S0, ivec2(2 * t + 1, 2 * t + 1));
    result = vec4(a.x, a.w, b.x, b.w);
}

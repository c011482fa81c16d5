// Copy kernel for RGBA textures: the texel at the fragment's own position.
uniform samplerRECT S0;
out vec4 result;

void main() {
    result = texelAt(S0, ivec2(gl_FragCoord.xy));
}

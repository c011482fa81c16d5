// Copy kernel for RGBA textures: the texel at the fragment's own position.
uniform sampler2DRect S0;
out vec4 result;

void main() {
    result = texelFetch(S0, ivec2(gl_FragCoord.xy));
}

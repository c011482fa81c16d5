// Kernel 4 (2008 structure paper): the element divided by the pivot whose index T0 carries.
uniform sampler2DRect S0;
in vec3 T0;
out float result;

void main() {
    result = texture(S0, gl_FragCoord.xy).r / texture(S0, T0.xy).r;
}

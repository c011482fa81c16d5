// Writes a constant into all four channels (clears RGBA textures).
uniform float value;
out vec4 result;

void main() {
    result = vec4(value);
}

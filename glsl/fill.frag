// Writes a constant.
uniform float value;
out float result;

void main() {
    result = value;
}

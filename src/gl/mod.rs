//! The only code that calls OpenGL.

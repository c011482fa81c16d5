//! Errors of the GL layer: each says what failed and what the user can do about it.

/// What can go wrong between glsolve and the GL driver.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
#[allow(missing_docs)] // fields and variants named by the messages; each still to be documented
pub enum GlError {
    /// libEGL could not be opened or offers no usable device.
    #[error(
        "no EGL driver found ({detail}); glsolve needs an OpenGL 3.3 or OpenGL ES 3.0 driver reachable \
         through EGL. On Debian/Ubuntu install Mesa's: apt-get install libegl1 libgl1-mesa-dri"
    )]
    NoEgl { detail: String },
    /// An EGL display or config could not be made on any device.
    #[error("no EGL device could host an OpenGL context: {detail}")]
    NoDevice { detail: String },
    /// The driver refused a context of the requested version.
    #[error("the driver offers no {api} {major}.{minor} context: {detail}")]
    NoContext { api: &'static str, major: u8, minor: u8, detail: String },
    /// A context came up but reports too old a version.
    #[error("{} {found} found; glsolve needs {} {major}.{minor} or newer", if *es { "OpenGL ES" } else { "OpenGL" }, if *es { "OpenGL ES" } else { "OpenGL core" })]
    VersionTooOld { found: String, es: bool, major: u8, minor: u8 },
    /// Float textures cannot be rendered to (no float render targets: on OpenGL ES and WebGL2
    /// they come with EXT_color_buffer_float).
    #[error("the driver cannot render to {format} textures ({detail}); glsolve needs float render targets (on OpenGL ES and WebGL2: EXT_color_buffer_float)")]
    FloatTargetUnsupported { format: &'static str, detail: String },
    /// The kernels' fetch asked for does not exist on this context.
    #[error("kernels cannot fetch by {fetch} here: {detail}")]
    FetchUnsupported { fetch: &'static str, detail: String },
    /// A requested texture exceeds GL_MAX_TEXTURE_SIZE.
    #[error("a {width}×{height} texture is needed ({what}) but this driver's GL_MAX_TEXTURE_SIZE is {max}")]
    TextureTooLarge { width: usize, height: usize, max: u32, what: String },
    /// A texture of zero width or height was requested.
    #[error("a {width}×{height} texture was requested ({what}); both sides must be at least 1")]
    EmptyTexture { width: usize, height: usize, what: String },
    /// Uploaded data does not match the texture's size.
    #[error("{what}: {got} values given for a {width}×{height} texture ({expected} expected)")]
    SizeMismatch { what: String, width: u32, height: u32, expected: usize, got: usize },
    /// A kernel failed to compile; the log names the line of the kernel's file.
    #[error("shader {kernel} failed to compile:\n{log}")]
    ShaderCompile { kernel: String, log: String },
    /// A program failed to link.
    #[error("shader program {kernel} failed to link:\n{log}")]
    ShaderLink { kernel: String, log: String },
    /// A framebuffer is not complete.
    #[error("framebuffer for {what} is incomplete (status 0x{status:04x})")]
    FramebufferIncomplete { what: String, status: u32 },
    /// A pass would read the texture it writes (undefined behaviour in GL).
    #[error("pass {pass} reads its own target texture; ping-pong or copy first")]
    Feedback { pass: String },
    /// A texture made by another `Gpu` (another context) was handed to this one.
    #[error("{what} uses {texture}, which belongs to another GL context (another Gpu)")]
    ForeignTexture { what: String, texture: String },
    /// A pass has more sources than the kernels declare samplers.
    #[error("pass {pass} binds {count} source textures; at most {max} are supported")]
    TooManySources { pass: String, count: usize, max: usize },
    /// A pass writes more targets at once than the context has draw buffers.
    #[error("pass {pass} writes {count} targets at once; this context has {max} draw buffers (GL_MAX_DRAW_BUFFERS)")]
    TooManyTargets { pass: String, count: usize, max: usize },
    /// A pass sets a uniform its kernel does not declare (a misspelt name).
    #[error("pass {pass} sets uniform `{name}`, which {kernel} does not declare (it declares: {declared})")]
    UnknownUniform { pass: String, kernel: String, name: String, declared: String },
    /// A pass leaves a uniform its program uses unset.
    #[error("pass {pass} does not set uniform `{name}`, which {kernel} uses")]
    MissingUniform { pass: String, kernel: String, name: String },
    /// A kernel uses a uniform of a type passes cannot set (they set floats).
    #[error("{kernel} declares uniform `{name}` of a type other than float; passes set floats only")]
    UniformType { kernel: String, name: String },
    /// A variant macro the kernel does not know was requested (a misspelt define).
    #[error("{kernel} has no variant `{define}` (its variants: {known})")]
    UnknownDefine { kernel: String, define: String, known: String },
    /// A pass's target or source has a texel format its kernel does not write or read.
    #[error("pass {pass}: {detail}")]
    Format { pass: String, detail: String },
    /// A window or its GL context could not be made or used.
    #[error("the window's GL context failed: {detail}")]
    Window { detail: String },
    /// A GL call reported an error.
    #[error("GL error 0x{code:04x} in {call}")]
    Driver { call: String, code: u32 },
    /// An object could not be created.
    #[error("the driver could not create {what}: {detail}")]
    Create { what: &'static str, detail: String },
    /// The context was lost (GPU reset, driver crash).
    #[error("the GL context was lost ({detail}); results computed on it are void")]
    ContextLost { detail: String },
}

pub type GlResult<T> = Result<T, GlError>;

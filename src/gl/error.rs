//! Errors of the GL layer: each says what failed and what the user can do about it.

/// What can go wrong between glsolve and the GL driver.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GlError {
    /// libEGL could not be opened or offers no usable device.
    #[error(
        "no EGL driver found ({detail}); glsolve needs an OpenGL 3.3 or OpenGL ES 3.0 driver reachable \
         through EGL. On Debian/Ubuntu install Mesa's: apt-get install libegl1 libgl1-mesa-dri"
    )]
    NoEgl {
        /// Why: the loader's or EGL's message.
        detail: String,
    },
    /// An EGL display or config could not be made on any device.
    #[error("no EGL device could host an OpenGL context: {detail}")]
    NoDevice {
        /// The device and what failed on it.
        detail: String,
    },
    /// The driver refused a context of the requested version.
    #[error("the driver offers no {api} {major}.{minor} context: {detail}")]
    NoContext {
        /// "OpenGL core" or "OpenGL ES".
        api: &'static str,
        /// The major version asked for.
        major: u8,
        /// The minor version asked for.
        minor: u8,
        /// The device and the driver's message.
        detail: String,
    },
    /// A context came up but reports too old a version.
    #[error("{} {found} found; glsolve needs {} {major}.{minor} or newer", if *es { "OpenGL ES" } else { "OpenGL" }, if *es { "OpenGL ES" } else { "OpenGL core" })]
    VersionTooOld {
        /// The context's GL_VERSION string.
        found: String,
        /// Whether the context is OpenGL ES (or WebGL2) rather than desktop OpenGL.
        es: bool,
        /// The oldest major version glsolve runs on (for this API).
        major: u8,
        /// The oldest minor version glsolve runs on (with `major`).
        minor: u8,
    },
    /// Float textures cannot be rendered to (no float render targets: on OpenGL ES and WebGL2
    /// they come with EXT_color_buffer_float).
    #[error("the driver cannot render to {format} textures ({detail}); glsolve needs float render targets (on OpenGL ES and WebGL2: EXT_color_buffer_float)")]
    FloatTargetUnsupported {
        /// The texel format probed (e.g. "R32F").
        format: &'static str,
        /// What the probe saw (a framebuffer status, a GL error).
        detail: String,
    },
    /// The kernels' fetch asked for does not exist on this context.
    #[error("kernels cannot fetch by {fetch} here: {detail}")]
    FetchUnsupported {
        /// The fetch's name.
        fetch: &'static str,
        /// Why this context cannot do it.
        detail: String,
    },
    /// A requested texture exceeds GL_MAX_TEXTURE_SIZE.
    #[error("a {width}×{height} texture is needed ({what}) but this driver's GL_MAX_TEXTURE_SIZE is {max}")]
    TextureTooLarge {
        /// Width asked for, in texels.
        width: usize,
        /// Height asked for, in texels.
        height: usize,
        /// The driver's largest side, in texels.
        max: u32,
        /// What the texture was to hold.
        what: String,
    },
    /// A texture of zero width or height was requested.
    #[error("a {width}×{height} texture was requested ({what}); both sides must be at least 1")]
    EmptyTexture {
        /// Width asked for, in texels.
        width: usize,
        /// Height asked for, in texels.
        height: usize,
        /// What the texture was to hold.
        what: String,
    },
    /// Uploaded data does not match the texture's size.
    #[error("{what}: {got} values given for a {width}×{height} texture ({expected} expected)")]
    SizeMismatch {
        /// The texture, or the transfer and its region.
        what: String,
        /// Width of the texture or region, in texels.
        width: u32,
        /// Height of the texture or region, in texels.
        height: u32,
        /// Floats needed (texels × channels), or the texture's size for a region outside it.
        expected: usize,
        /// Floats given.
        got: usize,
    },
    /// A kernel failed to compile; the log names the line of the kernel's file.
    #[error("shader {kernel} failed to compile:\n{log}")]
    ShaderCompile {
        /// The kernel's name.
        kernel: String,
        /// The compiler's log, its line numbers those of the kernel's file.
        log: String,
    },
    /// A program failed to link.
    #[error("shader program {kernel} failed to link:\n{log}")]
    ShaderLink {
        /// The kernel's name.
        kernel: String,
        /// The linker's log.
        log: String,
    },
    /// A framebuffer is not complete.
    #[error("framebuffer for {what} is incomplete (status 0x{status:04x})")]
    FramebufferIncomplete {
        /// The texture or the pass's targets, with their size.
        what: String,
        /// glCheckFramebufferStatus's answer.
        status: u32,
    },
    /// A pass would read the texture it writes (undefined behaviour in GL).
    #[error("pass {pass} reads its own target texture; ping-pong or copy first")]
    Feedback {
        /// The pass's name.
        pass: String,
    },
    /// A texture made by another `Gpu` (another context) was handed to this one.
    #[error("{what} uses {texture}, which belongs to another GL context (another Gpu)")]
    ForeignTexture {
        /// The operation or pass that was handed the texture.
        what: String,
        /// The texture (its debug form).
        texture: String,
    },
    /// A pass has more sources than the kernels declare samplers.
    #[error("pass {pass} binds {count} source textures; at most {max} are supported")]
    TooManySources {
        /// The pass's name.
        pass: String,
        /// Source textures it binds.
        count: usize,
        /// The most the kernels declare.
        max: usize,
    },
    /// A pass writes more targets at once than the context has draw buffers.
    #[error("pass {pass} writes {count} targets at once; this context has {max} draw buffers (GL_MAX_DRAW_BUFFERS)")]
    TooManyTargets {
        /// The pass's name.
        pass: String,
        /// Targets it writes.
        count: usize,
        /// The context's GL_MAX_DRAW_BUFFERS.
        max: usize,
    },
    /// A pass sets a uniform its kernel does not declare (a misspelt name).
    #[error("pass {pass} sets uniform `{name}`, which {kernel} does not declare (it declares: {declared})")]
    UnknownUniform {
        /// The pass's name.
        pass: String,
        /// Its kernel's name.
        kernel: String,
        /// The uniform the pass sets.
        name: String,
        /// The uniforms the kernel declares, comma-separated.
        declared: String,
    },
    /// A pass leaves a uniform its program uses unset.
    #[error("pass {pass} does not set uniform `{name}`, which {kernel} uses")]
    MissingUniform {
        /// The pass's name.
        pass: String,
        /// Its kernel's name.
        kernel: String,
        /// The uniform left unset.
        name: String,
    },
    /// A kernel uses a uniform of a type passes cannot set (they set floats).
    #[error("{kernel} declares uniform `{name}` of a type other than float; passes set floats only")]
    UniformType {
        /// The kernel's name.
        kernel: String,
        /// The uniform's name.
        name: String,
    },
    /// A variant macro the kernel does not know was requested (a misspelt define).
    #[error("{kernel} has no variant `{define}` (its variants: {known})")]
    UnknownDefine {
        /// The kernel's file name.
        kernel: String,
        /// The define asked for.
        define: String,
        /// The defines it knows, comma-separated.
        known: String,
    },
    /// A pass's target or source has a texel format its kernel does not write or read.
    #[error("pass {pass}: {detail}")]
    Format {
        /// The pass's name.
        pass: String,
        /// What does not match (a texture's format or size, the number of targets).
        detail: String,
    },
    /// A window or its GL context could not be made or used.
    #[error("the window's GL context failed: {detail}")]
    Window {
        /// The windowing system's or driver's message.
        detail: String,
    },
    /// A GL call reported an error.
    #[error("GL error 0x{code:04x} in {call}")]
    Driver {
        /// The GL call or step that reported it.
        call: String,
        /// glGetError's code (e.g. 0x0505, GL_OUT_OF_MEMORY).
        code: u32,
    },
    /// An object could not be created.
    #[error("the driver could not create {what}: {detail}")]
    Create {
        /// The kind of object (e.g. "a texture").
        what: &'static str,
        /// The driver's message.
        detail: String,
    },
    /// The context was lost (GPU reset, driver crash).
    #[error("the GL context was lost ({detail}); results computed on it are void")]
    ContextLost {
        /// How the loss was seen (a reset status or a failed call) and after which call.
        detail: String,
    },
}

pub type GlResult<T> = Result<T, GlError>;

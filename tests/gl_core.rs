//! The GL compute core on a real driver: coverage of every primitive, interpolated coordinates,
//! swizzled fetches, exact copies, ping-pong, occlusion counts, and every error on purpose.
mod common;
use common::{with_gpu, Rng};
use glsolve::geometry::cholesky::{fig5_outer_update_triangle, fig5c_outer_update_triad};
use glsolve::geometry::coverage::fragments;
use glsolve::geometry::{Primitive, Vertex};
use glsolve::gl::{GlError, Gpu, Measure, Pass, PingPong, TexelFormat, Texture};
use glsolve::kernels;

/// Fills `target` (zeroed first) with 1 over `p`; returns the texels set and the occlusion count.
fn coverage_on_gpu(gpu: &Gpu, target: &Texture, p: Primitive) -> (Vec<(u32, u32)>, u64) {
    gpu.write(target, &vec![0.0; target.len()]).unwrap();
    let (r, log) = gpu.logged(Measure::FRAGMENTS, |gpu| {
        gpu.run(&Pass::new("fill", &kernels::FILL, target, &[], p).uniforms(&[("value", 1.0)]))
    });
    r.unwrap();
    let data = gpu.read(target).unwrap();
    let w = target.width();
    let set = data.iter().enumerate().filter(|(_, &v)| v == 1.0).map(|(n, _)| (n as u32 % w, n as u32 / w)).collect();
    (set, log.fragments())
}

fn lower_trailing(k: u32, m: u32) -> Vec<(u32, u32)> {
    (k + 1..m).flat_map(|i| (k + 1..=i).map(move |j| (j, i))).collect()
}

#[test]
fn oversized_triangle_shades_exactly_the_trailing_lower_triangle_once() {
    with_gpu(|gpu| {
        for m in (1u32..=14).chain([31, 64, 101]) {
            let t = gpu.texture(m as usize, m as usize, "target").unwrap();
            let ks: Vec<u32> = if m <= 14 { (0..m.saturating_sub(1)).collect() } else { vec![0, 1, m / 2, m - 2] };
            for k in ks {
                for p in [fig5_outer_update_triangle(k, m), fig5c_outer_update_triad(k, m)] {
                    let (set, count) = coverage_on_gpu(gpu, &t, p);
                    let expect = lower_trailing(k, m);
                    assert_eq!(set, expect, "k={k} m={m}");
                    // Each texel once: the occlusion count equals the number of texels set.
                    assert_eq!(count, expect.len() as u64, "k={k} m={m}");
                }
            }
        }
    });
}

#[test]
fn interpolated_coordinates_are_the_papers_texel_centre_values() {
    with_gpu(|gpu| {
        for (m, k) in [(9u32, 0u32), (9, 4), (16, 7), (33, 0), (33, 20)] {
            let t = gpu.texture(m as usize, m as usize, "probe").unwrap();
            let p = fig5_outer_update_triangle(k, m);
            let mut got = Vec::new();
            for c in [0.0f32, 1.0, 3.0, 4.0] {
                gpu.write(&t, &vec![-1.0; t.len()]).unwrap();
                gpu.run(&Pass::new("probe", &kernels::PROBE_COORDS, &t, &[], p).uniforms(&[("component", c)])).unwrap();
                got.push(gpu.read(&t).unwrap());
            }
            for (j, i) in lower_trailing(k, m) {
                let n = (i * m + j) as usize;
                let kc = k as f32 + 0.5;
                // The paper: T0 = (k+.5, i), T1 = (j, k+.5) in texel-centre units.
                let want = [kc, i as f32 + 0.5, j as f32 + 0.5, kc];
                for c in 0..4 {
                    // Fetches only need floor() right; the driver delivers centres to well under 1e-3.
                    assert!(
                        (got[c][n] - want[c]).abs() < 1e-3,
                        "m={m} k={k} ({j},{i}) component {c}: {} vs {}",
                        got[c][n],
                        want[c]
                    );
                }
            }
        }
    });
}

#[test]
fn swizzled_fetch_reads_the_transposed_element() {
    with_gpu(|gpu| {
        let (w, h) = (13usize, 13usize);
        let mut rng = Rng::new(7);
        let a: Vec<f32> = (0..w * h).map(|_| rng.f32()).collect();
        let src = gpu.upload(w, h, &a, "A").unwrap();
        let dst = gpu.texture(w, h, "Aᵀ").unwrap();
        gpu.run(
            &Pass::new("transpose", &kernels::FETCH_T0, &dst, &[&src], Primitive::full(w as u32, h as u32))
                .defines(&["SWIZZLE_YX"]),
        )
        .unwrap();
        let t = gpu.read(&dst).unwrap();
        for i in 0..h {
            for j in 0..w {
                assert_eq!(t[i * w + j].to_bits(), a[j * w + i].to_bits(), "({i},{j})");
            }
        }
    });
}

#[test]
fn rectangle_line_and_point_cover_exactly_their_texels() {
    with_gpu(|gpu| {
        let (w, h) = (20u32, 11u32);
        let t = gpu.texture(w as usize, h as usize, "target").unwrap();
        let cases: Vec<(Primitive, Vec<(u32, u32)>)> = vec![
            (Primitive::texel_rect(3, 2, 9, 7), (2..7).flat_map(|i| (3..9).map(move |j| (j, i))).collect()),
            (Primitive::texel_rect(0, 0, w, h), (0..h).flat_map(|i| (0..w).map(move |j| (j, i))).collect()),
            (Primitive::texel_point(5, 4), vec![(5, 4)]),
            (Primitive::texel_point(0, 0), vec![(0, 0)]),
            // Lines run from texel centre to texel centre (the diamond-exit rule is then unambiguous):
            // along row 3 from column 2's centre to column 12's, columns 2..12 are shaded.
            (Primitive::Line([Vertex::at(2.5, 3.5), Vertex::at(12.5, 3.5)]), (2..12).map(|j| (j, 3)).collect()),
            // Along column 6 from row 1's centre to row 10's: rows 1..10.
            (Primitive::Line([Vertex::at(6.5, 1.5), Vertex::at(6.5, 10.5)]), (1..10).map(|i| (6, i)).collect()),
        ];
        for (p, mut expect) in cases {
            expect.sort_by_key(|&(j, i)| (i, j));
            let (set, count) = coverage_on_gpu(gpu, &t, p);
            assert_eq!(set, expect, "{p:?}");
            assert_eq!(count, expect.len() as u64, "{p:?}");
            // The reference rasterizer predicts the same set.
            let predicted: Vec<(u32, u32)> = fragments(&p, w, h).unwrap().iter().map(|f| (f.j, f.i)).collect();
            assert_eq!(predicted, expect, "{p:?}");
        }
    });
}

#[test]
fn upload_copy_readback_is_bit_exact_and_ping_pong_swaps() {
    with_gpu(|gpu| {
        let (w, h) = (37usize, 23usize);
        let mut rng = Rng::new(3);
        let mut a: Vec<f32> = (0..w * h).map(|_| rng.f32() * 1e6).collect();
        a[0] = 0.0;
        a[1] = -0.0;
        a[2] = f32::MAX;
        a[3] = f32::MIN_POSITIVE;
        a[4] = f32::INFINITY;
        a[5] = f32::NEG_INFINITY;
        let s = gpu.upload(w, h, &a, "S").unwrap();
        assert_eq!(
            gpu.read(&s).unwrap().iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
            a.iter().map(|x| x.to_bits()).collect::<Vec<_>>()
        );
        let t = gpu.texture(w, h, "T").unwrap();
        let mut pp = PingPong::new(s, t);
        for round in 0..3 {
            gpu.run(&Pass::new(
                "copy",
                &kernels::COPY,
                pp.target(),
                &[pp.source()],
                Primitive::full(w as u32, h as u32),
            ))
            .unwrap();
            pp.swap();
            let back = gpu.read(pp.source()).unwrap();
            assert!(back.iter().zip(&a).all(|(x, y)| x.to_bits() == y.to_bits()), "round {round}");
        }
        // A partial copy leaves the rest of the target alone; the swap makes it the source.
        gpu.write(pp.target(), &vec![7.0; w * h]).unwrap();
        gpu.run(&Pass::new("copy", &kernels::COPY, pp.target(), &[pp.source()], Primitive::texel_rect(1, 1, 3, 2)))
            .unwrap();
        pp.swap();
        let back = gpu.read(pp.source()).unwrap();
        for (n, v) in back.iter().enumerate() {
            let (j, i) = (n % w, n / w);
            let want = if (1..3).contains(&j) && i == 1 { a[n] } else { 7.0 };
            assert_eq!(v.to_bits(), want.to_bits(), "({j},{i})");
        }
        let part = gpu.read_rect(pp.source(), 1, 1, 2, 1).unwrap();
        assert_eq!(part, vec![a[w + 1], a[w + 2]]);
    });
}

#[test]
fn textures_are_freed_when_dropped() {
    with_gpu(|gpu| {
        let before = gpu.live_textures();
        let created = gpu.textures_created();
        let names = {
            let a = gpu.texture(8, 8, "a").unwrap();
            let b = gpu.upload(2, 2, &[1.0, 2.0, 3.0, 4.0], "b").unwrap();
            assert_eq!(gpu.live_textures(), before + 2);
            // GL itself knows both objects while they live.
            assert!(gpu.is_texture(a.gl_name()) && gpu.is_texture(b.gl_name()));
            [a.gl_name(), b.gl_name()]
        };
        assert_eq!(gpu.live_textures(), before);
        assert_eq!(gpu.textures_created(), created + 2);
        // … and no longer after the drop: the driver, not only the crate's count, says so.
        for n in names {
            assert!(!gpu.is_texture(n), "texture {n} still exists in GL after its drop");
        }
    });
}

#[test]
fn rgba_textures_round_trip_four_floats_per_texel() {
    with_gpu(|gpu| {
        let (w, h) = (3usize, 2usize);
        let data: Vec<f32> = (0..w * h * 4).map(|v| v as f32 * 0.5 - 3.0).collect();
        let t = gpu.upload_of(TexelFormat::Rgba32F, w, h, &data, "rgba").unwrap();
        assert_eq!(t.format(), TexelFormat::Rgba32F);
        assert_eq!(gpu.read(&t).unwrap(), data);
        // Texel (1, 1): its four channels in R, G, B, A order.
        assert_eq!(gpu.read_rect(&t, 1, 1, 1, 1).unwrap(), data[(w + 1) * 4..(w + 2) * 4]);
        let e = gpu.upload_of(TexelFormat::Rgba32F, w, h, &data[..w * h], "short").unwrap_err();
        assert!(matches!(e, GlError::SizeMismatch { expected: 24, got: 6, .. }), "{e}");
        // A one-float kernel cannot write RGBA texels: the pass says which and why.
        let e = gpu
            .run(&Pass::new("fill", &kernels::FILL, &t, &[], Primitive::full(3, 2)).uniforms(&[("value", 1.0)]))
            .unwrap_err();
        assert!(matches!(e, GlError::Format { .. }), "{e}");
        assert!(e.to_string().contains("RGBA32F"), "{e}");
    });
}

#[test]
fn a_misspelt_uniform_or_define_and_a_missing_uniform_are_errors() {
    with_gpu(|gpu| {
        let t = gpu.texture(2, 2, "t").unwrap();
        let fill = |u: &[(&'static str, f32)]| {
            gpu.run(&Pass::new("fill", &kernels::FILL, &t, &[], Primitive::full(2, 2)).uniforms(u))
        };
        fill(&[("value", 1.0)]).unwrap();
        let e = fill(&[("valeu", 1.0)]).unwrap_err();
        assert!(matches!(&e, GlError::UnknownUniform { name, .. } if name == "valeu"), "{e}");
        assert!(e.to_string().contains("value"), "the message lists the declared names: {e}");
        let e = fill(&[]).unwrap_err();
        assert!(matches!(&e, GlError::MissingUniform { name, .. } if name == "value"), "{e}");
        let u = gpu.texture(2, 2, "u").unwrap();
        let e = gpu
            .run(&Pass::new("copy", &kernels::FETCH_T0, &u, &[&t], Primitive::full(2, 2)).defines(&["SWIZZLE_XY"]))
            .unwrap_err();
        assert!(matches!(&e, GlError::UnknownDefine { define, .. } if define == "SWIZZLE_XY"), "{e}");
    });
}

#[test]
fn texture_larger_than_the_driver_limit_is_a_typed_error() {
    with_gpu(|gpu| {
        let max = gpu.info().max_side() as usize;
        let e = gpu.texture(max + 1, 4, "the matrix C").unwrap_err();
        assert!(
            matches!(e, GlError::TextureTooLarge { width, max: m, .. } if width == max + 1 && m as usize == max),
            "{e}"
        );
        let msg = e.to_string();
        assert!(msg.contains("GL_MAX_TEXTURE_SIZE") && msg.contains("the matrix C"), "{msg}");
        let e = gpu.upload(3, max + 1, &[], "b").unwrap_err();
        assert!(matches!(e, GlError::TextureTooLarge { .. }), "{e}");
        let e = gpu.texture(0, 5, "empty").unwrap_err();
        assert!(matches!(e, GlError::EmptyTexture { .. }), "{e}");
        let e = gpu.upload(2, 2, &[1.0; 3], "short").unwrap_err();
        assert!(matches!(e, GlError::SizeMismatch { expected: 4, got: 3, .. }), "{e}");
        let t = gpu.texture(4, 4, "t").unwrap();
        assert!(matches!(gpu.read_rect(&t, 3, 3, 2, 1), Err(GlError::SizeMismatch { .. })));
    });
}

static BROKEN: glsolve::gl::Kernel = glsolve::gl::Kernel {
    file: "broken.frag",
    source: "out float result;\nvoid main() {\n    result = undefined_thing;\n}\n",
    variants: &[],
};
static UNLINKABLE: glsolve::gl::Kernel = glsolve::gl::Kernel {
    file: "unlinkable.frag",
    source: "in vec2 T0;\nout float result;\nvoid main() { result = T0.x; }\n",
    variants: &[],
};

#[test]
fn broken_shader_reports_its_file_and_the_log() {
    with_gpu(|gpu| {
        let t = gpu.texture(2, 2, "t").unwrap();
        let e = gpu.run(&Pass::new("broken", &BROKEN, &t, &[], Primitive::full(2, 2))).unwrap_err();
        match &e {
            GlError::ShaderCompile { kernel, log } => {
                assert_eq!(kernel, "broken.frag");
                assert!(log.contains("undefined_thing"), "{log}");
                // The driver's line numbers refer to the kernel file (line 3).
                assert!(log.contains(":3(") || log.contains(":3:") || log.contains("(3)"), "{log}");
                assert!(log.contains("   3 |     result = undefined_thing;"), "{log}");
            }
            other => panic!("expected a compile error, got {other}"),
        }
        let e = gpu.run(&Pass::new("unlinkable", &UNLINKABLE, &t, &[], Primitive::full(2, 2))).unwrap_err();
        assert!(matches!(&e, GlError::ShaderLink { kernel, .. } if kernel == "unlinkable.frag"), "{e}");
        // The context is still usable afterwards.
        gpu.run(&Pass::new("fill", &kernels::FILL, &t, &[], Primitive::full(2, 2)).uniforms(&[("value", 2.0)]))
            .unwrap();
        assert_eq!(gpu.read(&t).unwrap(), vec![2.0; 4]);
    });
}

#[test]
fn reading_the_target_in_the_same_pass_is_refused() {
    with_gpu(|gpu| {
        let t = gpu.texture(2, 2, "t").unwrap();
        let u = gpu.texture(2, 2, "u").unwrap();
        let e = gpu.run(&Pass::new("copy", &kernels::COPY, &t, &[&t], Primitive::full(2, 2))).unwrap_err();
        assert!(matches!(e, GlError::Feedback { .. }), "{e}");
        // One more source than a pass may bind (MAX_SOURCES = 16).
        let sources = vec![&u; 17];
        let e = gpu.run(&Pass::new("copy", &kernels::COPY, &t, &sources, Primitive::full(2, 2))).unwrap_err();
        assert!(matches!(e, GlError::TooManySources { count: 17, .. }), "{e}");
    });
}

#[test]
fn a_format_that_cannot_be_rendered_to_is_reported() {
    with_gpu(|gpu| {
        gpu.probe_render_format(glsolve_gl_r32f(), "R32F").unwrap();
        // RGB9_E5 is a texture format, never a colour-renderable one.
        let e = gpu.probe_render_format(0x8C3D, "RGB9_E5").unwrap_err();
        assert!(matches!(e, GlError::FloatTargetUnsupported { format: "RGB9_E5", .. }), "{e}");
        assert!(e.to_string().contains("float render targets"));
    });
}

fn glsolve_gl_r32f() -> u32 {
    0x822E
}

#[test]
fn a_context_version_the_driver_lacks_is_a_typed_error() {
    // On its own thread: a new context must not disturb the shared one.
    let e = std::thread::spawn(|| {
        let api = common::test_gl();
        Gpu::headless_with(glsolve::gl::HeadlessOptions { api, version: Some((9, 9)), ..Default::default() }).err()
    })
    .join()
    .unwrap()
    .expect("no driver offers version 9.9");
    assert!(matches!(e, GlError::NoContext { major: 9, minor: 9, .. }), "{e}");
    assert!(e.to_string().contains("9.9"));
}

#[test]
fn the_missing_driver_message_says_what_to_install() {
    let e = GlError::NoEgl { detail: "libEGL.so.1: cannot open shared object file".into() };
    let m = e.to_string();
    assert!(m.contains("apt-get install libegl1 libgl1-mesa-dri") && m.contains("libEGL.so.1"), "{m}");
}

#[test]
fn info_reports_a_renderable_float_target_and_a_texture_limit() {
    with_gpu(|gpu| {
        let i = gpu.info();
        assert!(i.r32f_renderable);
        assert!(i.max_side() >= 1024, "{i:?}");
        assert!(!i.renderer.is_empty() && !i.version.is_empty());
    });
}

#[test]
fn context_is_robust_and_reports_no_reset_while_healthy() {
    with_gpu(|gpu| {
        // Mesa's GL 4.5 has glGetGraphicsResetStatus; a context lost on a real GPU is reported
        // by the same query the LP backends call after their passes. Mesa refuses a robust
        // OpenGL ES context, so there only GL_CONTEXT_LOST from glGetError can tell.
        if gpu.info().is_es() {
            assert_eq!(gpu.has_reset_query(), gpu.info().reset_notification);
        } else {
            assert!(gpu.info().reset_notification, "no reset query on {}", gpu.info().version);
            assert!(gpu.has_reset_query());
        }
        let t = gpu.upload(4, 4, &[1.0; 16], "t").unwrap();
        assert_eq!(gpu.read(&t).unwrap(), vec![1.0; 16]);
        gpu.check("a readback").unwrap();
        gpu.reset_status("a readback").unwrap();
    });
}

/// Values that low or medium precision cannot hold (on Mesa's OpenGL ES a lowp sampler returns
/// 1/3 as 0.333251953 and 3e10 as 65504), read through every way the kernels fetch — texRECT at
/// the fragment, at an interpolated coordinate, and texelAt — from R32F and RGBA32F textures:
/// all must come back bit for bit.
#[test]
fn fetches_are_full_single_precision_through_every_sampler_the_kernels_use() {
    with_gpu(|gpu| {
        let values = [1.0f32 / 3.0, 3e10, -7.1e-30, 1.0 + f32::EPSILON];
        let one = gpu.upload(4, 1, &values, "one channel").unwrap();
        let t = gpu.texture(4, 1, "copy").unwrap();
        gpu.run(&Pass::new("copy", &kernels::COPY, &t, &[&one], Primitive::full(4, 1))).unwrap();
        assert_eq!(gpu.read(&t).unwrap(), values, "texRECT at the fragment (copy.frag)");
        gpu.run(&Pass::new("fetch", &kernels::FETCH_T0, &t, &[&one], Primitive::full(4, 1))).unwrap();
        assert_eq!(gpu.read(&t).unwrap(), values, "texRECT at T0 (fetch_t0.frag)");
        let quad: Vec<f32> = values.iter().flat_map(|&v| [v, -v, v * 0.5, 1.0 / v]).collect();
        let four = gpu.upload_of(TexelFormat::Rgba32F, 4, 1, &quad, "four channels").unwrap();
        let t4 = gpu.texture_of(TexelFormat::Rgba32F, 4, 1, "copy4").unwrap();
        gpu.run(&Pass::new("copy4", &kernels::COPY4, &t4, &[&four], Primitive::full(4, 1))).unwrap();
        assert_eq!(gpu.read(&t4).unwrap(), quad, "texelAt (copy4.frag)");
    });
}

/// Every other test of this file, again on an OpenGL ES 3 context (`GLSOLVE_TEST_GL=es`).
#[test]
fn every_test_of_this_file_passes_on_opengl_es() {
    common::rerun_on_es();
}

//! The visual debug mode: the headless dump shows the values the passes wrote, the viewer never
//! changes a result, and the window (under Xvfb when there is no display) shows the heatmaps and
//! the oversized triangle.
#[path = "../../tests/common/mod.rs"]
mod common;
use common::with_gpu;
use glsolve::debug::colormap::{self, Range};
use glsolve::debug::dump::{file_name, Dump, TextureExport, TextureRole};
use glsolve::debug::observer::STATUS_LINES;
use glsolve::debug::render::{self, GRID, OUTLINE};
use glsolve::debug::{Algorithm, Direction, Label, Recorder, Recording, Scenario, Sink, Viewer};
use glsolve::geometry::cholesky::fig5_outer_update_triangle;
use glsolve::gl::{Gpu, Measure, Pass, PassObserver, PassRecord};
use glsolve::gpu::cholesky::{self, Variant};
use glsolve::Format;
use image::RgbaImage;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::rc::Rc;

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("glsolve-viewer-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

fn rgb(img: &RgbaImage, x: i32, y: i32) -> [u8; 3] {
    let p = img.get_pixel(x as u32, y as u32).0;
    [p[0], p[1], p[2]]
}

fn load(path: &Path) -> RgbaImage {
    image::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display())).to_rgba8()
}

/// Wraps the viewer: after each pass it reads the target back whole (independently of the
/// viewer's own incremental copies) and checks the PNG the dump just wrote against it.
struct Checker {
    viewer: Viewer,
    dir: PathBuf,
    checked: usize,
}

impl PassObserver for Checker {
    fn measure(&self) -> Measure {
        self.viewer.measure()
    }
    fn before_pass(&mut self, gpu: &Gpu, pass: &Pass) {
        self.viewer.before_pass(gpu, pass);
    }
    fn after_pass(&mut self, gpu: &Gpu, pass: &Pass, record: &PassRecord) {
        self.viewer.after_pass(gpu, pass, record);
        let view = self.viewer.view();
        let info = view.last.expect("a pass was seen");
        assert_eq!(info.fragments, record.fragments);
        let img = load(&self.dir.join(file_name(info)));
        // The logical matrix of the target (an RGBA texel holds a 2×2 block or a run of four).
        let grid = pass.target.grid();
        let (gx, gy) = grid.span();
        let channels = pass.target.format().channels();
        let raw = gpu.read(pass.target).expect("read back");
        let (tw, th) = (pass.target.width(), pass.target.height());
        let (w, h) = (tw * gx, th * gy);
        let mut values = vec![0.0f32; (w * h) as usize];
        for (t, texel) in raw.chunks(channels).enumerate() {
            let (x, y) = (t as u32 % tw, t as u32 / tw);
            for (c, v) in texel.iter().enumerate() {
                let (col, row) = grid.entry(x, y, c as u32);
                values[(row * w + col) as usize] = *v;
            }
        }
        let range = Range::robust(&values);
        let (_, rect) = view
            .layout(img.width(), img.height())
            .into_iter()
            .find(|(id, _)| *id == pass.target.id())
            .expect("the target is shown");
        for i in 0..h {
            for j in 0..w {
                let want = colormap::color(values[(i * w + j) as usize], range);
                let pixels = rect.pixels_of(j, i);
                let heat = pixels.iter().filter(|&&(x, y)| rgb(&img, x, y) == want).count();
                let outline = pixels.iter().filter(|&&(x, y)| rgb(&img, x, y) == OUTLINE).count();
                // The block grid of an RGBA texture crosses some pixels of its entries.
                let lines = pixels.iter().filter(|&&(x, y)| gx > 1 && rgb(&img, x, y) == GRID).count();
                assert!(heat > 0, "{}: entry ({j},{i}) never shows colour {want:?}", info.name);
                assert_eq!(heat + outline + lines, pixels.len(), "{}: entry ({j},{i}) has stray pixels", info.name);
            }
        }
        self.checked += 1;
    }
}

/// Watches `sc` with the checking dump; returns the passes checked.
fn checked_dump(sc: Scenario, dir: &Path) -> usize {
    let d = dir.to_path_buf();
    with_gpu(move |gpu| {
        let sinks: Vec<Box<dyn Sink>> = vec![Box::new(Dump::new(&d, None, None, None))];
        let checker = Rc::new(RefCell::new(Checker { viewer: Viewer::new(sc.label(), sinks), dir: d, checked: 0 }));
        let out = sc.run(gpu, Some(checker.clone())).expect("run");
        checker.borrow_mut().viewer.finish(gpu).expect("viewer");
        let checked = checker.borrow().checked;
        assert_eq!(checked as u64, out.passes);
        checked
    })
}

#[test]
fn the_blocked_cholesky_is_shown_as_its_logical_matrix_with_the_block_grid() {
    let dir = temp_dir("dump-blocked");
    let sc = Scenario {
        algorithm: Algorithm::Cholesky,
        m: 9,
        n: 9,
        variant: Variant::Blocked(glsolve::Block::B8),
        format: Format::Full,
        direction: Direction::Both,
        seed: 3,
    };
    // The plan, the clear of L before it and the gather of the diagonal after it.
    let expected = cholesky::plan(9, sc.variant).len() + 2;
    assert_eq!(checked_dump(sc, &dir), expected);
    let img = load(&dir.join("pass_00003_block_update_k0.png"));
    assert!(img.pixels().any(|p| [p[0], p[1], p[2]] == GRID), "the 2×2 block grid is drawn");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dump_of_a_small_cholesky_is_one_png_per_pass_showing_the_read_back_values() {
    let dir = temp_dir("dump");
    let d = dir.clone();
    let checked = with_gpu(move |gpu| {
        let m = 8;
        let sc = Scenario {
            algorithm: Algorithm::Cholesky,
            m,
            n: m,
            variant: Variant::PAPER,
            format: Format::Full,
            direction: Direction::Both,
            seed: 3,
        };
        let sinks: Vec<Box<dyn Sink>> = vec![Box::new(Dump::new(&d, None, None, None))];
        let checker = Rc::new(RefCell::new(Checker { viewer: Viewer::new(sc.label(), sinks), dir: d, checked: 0 }));
        let out = sc.run(gpu, Some(checker.clone())).expect("run");
        checker.borrow_mut().viewer.finish(gpu).expect("viewer");
        let checked = checker.borrow().checked;
        assert_eq!(checked as u64, out.passes);
        checked
    });
    // Algorithm 5's plan plus the one pass that gathers the diagonal for the breakdown check.
    let expected = cholesky::plan(8, Variant::PAPER).len() + 1;
    assert_eq!(checked, expected);
    let pngs = std::fs::read_dir(&dir)
        .expect("dir")
        .filter(|e| e.as_ref().is_ok_and(|e| e.path().extension().is_some_and(|x| x == "png")))
        .count();
    assert_eq!(pngs, expected);
    assert!(dir.join("pass_00004_outer_update_k0.png").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

fn scenarios() -> Vec<Scenario> {
    let base = Scenario {
        algorithm: Algorithm::Cholesky,
        m: 7,
        n: 11,
        variant: Variant::PAPER,
        format: Format::Full,
        direction: Direction::Both,
        seed: 5,
    };
    let mut v: Vec<Scenario> = Variant::all().map(|variant| Scenario { variant, ..base }).collect();
    let blocked = Variant::Blocked(glsolve::Block::B8);
    v.push(Scenario { algorithm: Algorithm::Assemble, variant: blocked, ..base });
    v.push(Scenario { format: Format::Packed, ..base });
    for format in [Format::Full, Format::Packed] {
        v.push(Scenario { algorithm: Algorithm::Assemble, format, ..base });
        v.push(Scenario { algorithm: Algorithm::Solve, format, ..base });
    }
    v.push(Scenario { algorithm: Algorithm::Solve, direction: Direction::Forward, ..base });
    v.push(Scenario { algorithm: Algorithm::Solve, direction: Direction::Backward, m: 8, ..base });
    v
}

#[test]
fn results_with_the_viewer_attached_equal_results_without_it() {
    let dir = temp_dir("identical");
    with_gpu(move |gpu| {
        for (n, sc) in scenarios().into_iter().enumerate() {
            let plain = sc.run(gpu, None).expect("plain run");
            let sinks: Vec<Box<dyn Sink>> = vec![Box::new(Dump::new(&dir.join(n.to_string()), None, None, None))];
            let viewer = Rc::new(RefCell::new(Viewer::new(sc.label(), sinks)));
            let watched = sc.run(gpu, Some(viewer.clone())).expect("watched run");
            viewer.borrow_mut().finish(gpu).expect("viewer");
            assert_eq!(viewer.borrow().observed(), plain.passes, "{sc:?}");
            assert!(plain.passes > 0);
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
            assert_eq!(bits(&watched.result), bits(&plain.result), "{sc:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    });
}

/// A recording replays, frame for frame and pixel for pixel, what the live viewer drew after each
/// pass (the dump's PNGs), and shares the textures a pass did not write with the frame before.
#[test]
fn a_recording_replays_every_frame_the_viewer_drew() {
    let dir = temp_dir("recording");
    with_gpu(move |gpu| {
        for (n, sc) in scenarios().into_iter().enumerate() {
            let d = dir.join(n.to_string());
            let recording = Rc::new(RefCell::new(Recording::new(sc.label())));
            let sinks: Vec<Box<dyn Sink>> =
                vec![Box::new(Dump::new(&d, Some((320, 200)), None, None)), Box::new(Recorder(recording.clone()))];
            let viewer = Rc::new(RefCell::new(Viewer::new(sc.label(), sinks)));
            sc.run(gpu, Some(viewer.clone())).expect("watched run");
            viewer.borrow_mut().finish(gpu).expect("viewer");
            let r = recording.borrow();
            assert_eq!(r.len() as u64, viewer.borrow().observed(), "{sc:?}");
            let mut shown = 0;
            for k in 0..r.len() {
                let p = r.pass(k).unwrap();
                assert_eq!(p.info.index, k as u64);
                let live = load(&d.join(file_name(&p.info)));
                let replayed = r.render(k, 320, 200).unwrap();
                assert!(live.as_raw() == replayed.as_raw(), "{sc:?}: frame {k} differs from the live one");
                shown += p.panels.len();
            }
            assert!(r.render(r.len(), 320, 200).is_none());
            if r.len() > 2 {
                assert!(r.stored_snapshots() < shown, "{sc:?}: {} copies for {shown} panels", r.stored_snapshots());
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    });
}

#[test]
fn texture_export_draws_one_texture_with_the_pass_primitive() {
    let dir = temp_dir("export");
    let path = dir.join("fig5.png");
    let p = path.clone();
    with_gpu(move |gpu| {
        let sc = Scenario {
            algorithm: Algorithm::Cholesky,
            m: 8,
            n: 8,
            variant: Variant::PAPER,
            format: Format::Full,
            direction: Direction::Both,
            seed: 1,
        };
        let export = TextureExport::new(4, TextureRole::Target, p, Some(20.0));
        let viewer = Rc::new(RefCell::new(Viewer::new(Label::default(), vec![Box::new(export)])));
        sc.run(gpu, Some(viewer.clone())).expect("run");
        viewer.borrow_mut().finish(gpu).expect("export written");
        // A pass that never runs is an error, not a silent no-op.
        let late = TextureExport::new(1000, TextureRole::Target, std::env::temp_dir().join("never.png"), None);
        let viewer = Rc::new(RefCell::new(Viewer::new(Label::default(), vec![Box::new(late)])));
        sc.run(gpu, Some(viewer.clone())).expect("run");
        assert!(viewer.borrow_mut().finish(gpu).is_err());
    });
    let img = load(&path);
    let natural = render::natural_size(0, &[(8, 8)], 20.0);
    assert_eq!(img.height(), natural.1);
    assert!(img.width() >= natural.0);
    let rect = render::layout(img.width(), img.height(), 0, &[(8, 8)])[0];
    assert_eq!(rect.sx, 20.0);
    let tri = fig5_outer_update_triangle(0, 8);
    assert_outlined(&img, &rect, &tri);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Points along every edge of `p` are drawn in the outline colour (within a pixel).
fn assert_outlined(img: &RgbaImage, rect: &render::PanelRect, p: &glsolve::geometry::Primitive) {
    let v = p.vertices();
    for k in 0..v.len() {
        let (a, b) = (v[k].pos, v[(k + 1) % v.len()].pos);
        for t in [0.2f32, 0.5, 0.8] {
            let (x, y) = rect.to_pixel(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t);
            let (x, y) = (x.round() as i32, y.round() as i32);
            let hit = (-1..=1).any(|dy| (-1..=1).any(|dx| rgb(img, x + dx, y + dy) == OUTLINE));
            assert!(hit, "edge {k} at t={t}: no outline near pixel ({x},{y})");
        }
    }
}

fn in_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(program).is_file()))
}

/// The binary, through `xvfb-run` when there is no display. Neither: the test fails.
fn windowed(args: &[&str]) -> Command {
    let bin = env!("CARGO_BIN_EXE_glsolve");
    if std::env::var_os("DISPLAY").is_some() {
        let mut c = Command::new(bin);
        c.args(args);
        c
    } else if in_path("xvfb-run") {
        let mut c = Command::new("xvfb-run");
        c.args(["-a", "-s", "-screen 0 1280x1024x24", bin]).args(args);
        c
    } else {
        panic!(
            "the window test needs an X display: set DISPLAY or install Xvfb \
             (Debian: apt-get install xvfb xauth; .ci/run does this)"
        );
    }
}

#[test]
fn window_shows_the_heatmaps_and_the_oversized_triangle() {
    let dir = temp_dir("window");
    let shot = dir.join("window.png");
    let out = windowed(&[
        "show",
        "cholesky",
        "--m",
        "8",
        "--size",
        "960x540",
        "--play",
        "--speed",
        "1000",
        "--screenshot",
        shot.to_str().expect("utf-8 path"),
        "--at",
        "4",
        "--check-identical",
    ])
    .output()
    .expect("start the window");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "window run failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("bit-identical"), "{stdout}");
    let win = load(&shot);
    let (w, h) = win.dimensions();

    // The headless twin of the same pass at the same size.
    let dump_dir = dir.join("dump");
    let size = format!("{w}x{h}");
    let args = ["show", "cholesky", "--m", "8", "--dump", dump_dir.to_str().expect("utf-8"), "--passes", "4..5"];
    let out = Command::new(env!("CARGO_BIN_EXE_glsolve")).args(args).args(["--size", &size]).output().expect("dump");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dump = load(&dump_dir.join("pass_00004_outer_update_k0.png"));

    // Source S (left) and target T (right), both 8×8.
    let rects = render::layout(w, h, STATUS_LINES, &[(8, 8), (8, 8)]);
    let tri = fig5_outer_update_triangle(0, 8);
    assert_outlined(&win, &rects[1], &tri);
    let mut heat = 0;
    for (n, r) in rects.iter().enumerate() {
        for i in 0..8 {
            for j in 0..8 {
                for (x, y) in r.pixels_of(j, i) {
                    let c = rgb(&win, x, y);
                    if c == OUTLINE {
                        assert_eq!(n, 1, "outline pixel on the source panel at ({x},{y})");
                        continue;
                    }
                    assert_eq!(c, rgb(&dump, x, y), "window and dump differ at ({x},{y})");
                    assert_ne!(c, render::BACKGROUND);
                    heat += 1;
                }
            }
        }
        // The diagonal of an SPD matrix is positive: red, not blue.
        let (x, y) = r.to_pixel(2.5, 2.5);
        let c = rgb(&win, x as i32, y as i32);
        assert!(c[0] > c[2] + 60, "diagonal texel shows {c:?}");
    }
    assert!(heat > 2 * 64 * 100, "{heat} heatmap pixels");
    // Inside the triangle, the texel centre shows the heatmap, not the outline.
    let (x, y) = rects[1].to_pixel(3.5, 6.5);
    assert_ne!(rgb(&win, x as i32, y as i32), OUTLINE);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_screenshot_without_play_does_not_wait_for_a_key() {
    // Was: the window started paused and waited forever for a key no one pressed.
    let dir = temp_dir("screenshot");
    let shot = dir.join("shot.png");
    let mut child = windowed(&[
        "show",
        "cholesky",
        "--m",
        "4",
        "--speed",
        "1000",
        "--screenshot",
        shot.to_str().expect("utf-8 path"),
        "--at",
        "2",
    ])
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::null())
    .spawn()
    .expect("start the window");
    // A guard, not a measurement: a hang fails the test instead of the whole run.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the window did not close after its screenshot");
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    };
    assert!(status.success(), "window run failed");
    assert!(shot.is_file(), "no screenshot written");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lu_and_lp_can_be_watched_and_dumped() {
    for (alg, m) in [("lu", "6"), ("lp", "4")] {
        let dir = std::env::temp_dir().join(format!("glsolve-show-{alg}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let out = Command::new(env!("CARGO_BIN_EXE_glsolve"))
            .args(["show", alg, "--m", m, "--dump", dir.to_str().unwrap(), "--passes", "0..12", "--check-identical"])
            .output()
            .expect("run glsolve");
        assert!(out.status.success(), "{alg}: {}", String::from_utf8_lossy(&out.stderr));
        // --check-identical says what it compared: every value of the result (LU's whole m×m
        // factor texture, the LP's x with one entry per column of the seed-1 random LP) over
        // the whole run, at least the 12 dumped passes. A check that compared nothing, or
        // stopped at the dumped range, would report other numbers.
        let stdout = String::from_utf8_lossy(&out.stdout);
        let line =
            stdout.lines().find(|l| l.starts_with("bit-identical: ")).unwrap_or_else(|| panic!("{alg}: {stdout}"));
        let nums: Vec<u64> = line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
        let expected_values = match alg {
            "lu" => 36,
            _ => glsolve::lp::random::random_lp(4, 1).to_model(1).num_cols() as u64,
        };
        assert_eq!(nums.len(), 2, "{alg}: {line}");
        assert_eq!(nums[0], expected_values, "{alg}: {line}");
        assert!(nums[1] > 12, "{alg}: the whole run has more passes than the 12 dumped: {line}");
        let pngs = std::fs::read_dir(&dir)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "png"))
            .count();
        assert_eq!(pngs, 12, "{alg}: one PNG per pass in 0..12");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

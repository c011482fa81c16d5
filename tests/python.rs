//! The Python package's own tests on the wheel that ships: the virtual environment under
//! target/ with the test dependencies from PyPI, the wheel built from this checkout's sdist
//! (tests/python_build: maturin, zig, manylinux_2_28) installed into it, then pytest on
//! python/tests. Any failure fails this test with pytest's (or pip's) output.
use std::process::Command;

mod python_build;
use python_build::{build_wheel, run, tools_venv};

#[test]
fn python_package_builds_installs_and_passes_its_tests() {
    let venv = tools_venv();
    let wheel = build_wheel(&venv);
    let python = venv.join("bin").join("python");
    let mut install = Command::new(&python);
    install.args(["-m", "pip", "install", "--quiet", "--force-reinstall", "--no-deps"]).arg(&wheel);
    run("pip install of the wheel", &mut install, &venv);
    let mut pytest = Command::new(&python);
    pytest.args(["-m", "pytest", "-q", "-rs", "python/tests"]);
    let text = run("pytest python/tests", &mut pytest, &venv);
    println!("{text}");
    assert!(!text.contains(" skipped"), "no Python test may be skipped:\n{text}");
}

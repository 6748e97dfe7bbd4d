//! `scripts/dist` builds the release tarball from an already-built binary (the test's own,
//! no rebuild): every member is there, the generated files match what the binary prints,
//! and the SHA-256 it prints is the file's (checked by an independent implementation here).

use std::path::Path;
use std::process::Command;

const MEMBERS: [&str; 12] = [
    "dgscope",
    "dgscope.1",
    "completions/dgscope.bash",
    "completions/_dgscope",
    "completions/dgscope.fish",
    "themes/dark.toml",
    "themes/light.toml",
    "themes/high-contrast.toml",
    "themes/mono.toml",
    "README.md",
    "LICENSE",
    // The top directory itself.
    "",
];

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn dgscope(args: &[&str]) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_dgscope"))
        .args(args)
        .env_remove("DGSCOPE_CONFIG")
        .output()
        .unwrap();
    assert!(out.status.success(), "dgscope {args:?}");
    out.stdout
}

#[test]
fn dist_builds_the_tarball_with_everything_and_prints_its_sha256() {
    let out = tempfile::tempdir().unwrap();
    let run = Command::new("bash")
        .arg(root().join("scripts/dist"))
        .arg("--out")
        .arg(out.path())
        .env("DGSCOPE_BIN", env!("CARGO_BIN_EXE_dgscope"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout).into_owned();
    assert!(
        run.status.success(),
        "scripts/dist failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );

    // The printed line: "SHA256  PATH", and the same in PATH.sha256.
    let line = stdout.lines().last().expect("a line on stdout");
    let (sum, path) = line.split_once("  ").expect("SHA256  PATH");
    let tarball = Path::new(path);
    let version = env!("CARGO_PKG_VERSION");
    let name = tarball.file_name().unwrap().to_str().unwrap();
    assert!(
        name.starts_with(&format!("dgscope-{version}-")) && name.ends_with(".tar.gz"),
        "{name}"
    );
    assert_eq!(
        tarball.parent().unwrap(),
        out.path().canonicalize().unwrap()
    );
    let bytes = std::fs::read(tarball).unwrap();
    assert_eq!(
        sum,
        hex(&sha256(&bytes)),
        "printed SHA-256 is not the file's"
    );
    let side = std::fs::read_to_string(format!("{path}.sha256")).unwrap();
    assert_eq!(side.trim_end(), line);

    // Every member, under one top directory, and nothing else.
    let top = name.trim_end_matches(".tar.gz");
    let list = Command::new("tar")
        .arg("-tzf")
        .arg(tarball)
        .output()
        .unwrap();
    assert!(list.status.success());
    let mut listed: Vec<String> = String::from_utf8_lossy(&list.stdout)
        .lines()
        .map(|l| l.trim_end_matches('/').to_string())
        .collect();
    listed.sort();
    let mut want: Vec<String> = MEMBERS
        .iter()
        .map(|m| {
            if m.is_empty() {
                top.to_string()
            } else {
                format!("{top}/{m}")
            }
        })
        .collect();
    want.push(format!("{top}/completions"));
    want.push(format!("{top}/themes"));
    // docs/ and contrib/ whole, as in the tree.
    for sub in ["docs", "contrib"] {
        let mut stack = vec![root().join(sub)];
        while let Some(p) = stack.pop() {
            let rel = p
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .into_owned();
            want.push(format!("{top}/{rel}"));
            if p.is_dir() {
                stack.extend(std::fs::read_dir(&p).unwrap().map(|e| e.unwrap().path()));
            }
        }
    }
    want.sort();
    assert_eq!(listed, want);

    // Unpacked: the binary runs, and the generated files are what it prints.
    let x = tempfile::tempdir().unwrap();
    let st = Command::new("tar")
        .arg("-xzf")
        .arg(tarball)
        .arg("-C")
        .arg(x.path())
        .status()
        .unwrap();
    assert!(st.success());
    let d = x.path().join(top);
    let v = Command::new(d.join("dgscope"))
        .arg("--version")
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8_lossy(&v.stdout).trim(),
        format!("dgscope {version}")
    );
    let read = |p: &str| std::fs::read(d.join(p)).unwrap();
    // Stripped: no symbol table, and smaller than the binary it came from.
    let shipped = read("dgscope");
    let built = std::fs::read(env!("CARGO_BIN_EXE_dgscope")).unwrap();
    assert!(
        shipped.len() < built.len(),
        "{} vs {}",
        shipped.len(),
        built.len()
    );
    let sections = Command::new("readelf")
        .arg("-S")
        .arg(d.join("dgscope"))
        .output()
        .unwrap();
    let sections = String::from_utf8_lossy(&sections.stdout);
    assert!(sections.contains(".text"), "{sections}");
    assert!(!sections.contains(".symtab"), "not stripped: {sections}");
    assert_eq!(
        read("docs/schema/check.json"),
        std::fs::read(root().join("docs/schema/check.json")).unwrap()
    );
    assert_eq!(
        read("contrib/prometheus/dgscope.rules.yml"),
        std::fs::read(root().join("contrib/prometheus/dgscope.rules.yml")).unwrap()
    );
    assert_eq!(read("dgscope.1"), dgscope(&["man"]));
    assert_eq!(
        read("completions/dgscope.bash"),
        dgscope(&["completions", "bash"])
    );
    assert_eq!(
        read("completions/_dgscope"),
        dgscope(&["completions", "zsh"])
    );
    assert_eq!(
        read("completions/dgscope.fish"),
        dgscope(&["completions", "fish"])
    );
    assert_eq!(
        read("LICENSE"),
        std::fs::read(root().join("LICENSE")).unwrap()
    );
    assert_eq!(
        read("themes/dark.toml"),
        std::fs::read(root().join("themes/dark.toml")).unwrap()
    );
}

#[test]
fn dist_refuses_a_missing_binary() {
    let out = tempfile::tempdir().unwrap();
    let run = Command::new("bash")
        .arg(root().join("scripts/dist"))
        .arg("--out")
        .arg(out.path())
        .env("DGSCOPE_BIN", out.path().join("no-such-dgscope"))
        .output()
        .unwrap();
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("no dgscope binary"));
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0);
}

/// The license the crate declares is the one shipped.
#[test]
fn license_file_is_apache_2() {
    let text = std::fs::read_to_string(root().join("LICENSE")).unwrap();
    assert!(text.contains("Apache License") && text.contains("Version 2.0, January 2004"));
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    assert!(manifest.contains("license = \"Apache-2.0\""));
}

/// The package metadata points at files that exist or that `scripts/gen-assets` writes.
#[test]
fn deb_and_rpm_assets_are_the_binary_or_generated_or_in_the_tree() {
    let manifest: toml::Table = std::fs::read_to_string(root().join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let meta = &manifest["package"]["metadata"];
    let generated = [
        "target/assets/dgscope.1",
        "target/assets/completions/dgscope.bash",
        "target/assets/completions/_dgscope",
        "target/assets/completions/dgscope.fish",
    ];
    let check = |src: &str| {
        assert!(
            src == "target/release/dgscope"
                || generated.contains(&src)
                || src.contains('*') && root().join(src.split('*').next().unwrap()).is_dir()
                || root().join(src).is_file(),
            "asset {src} is neither built, generated nor in the tree"
        );
    };
    let deb = meta["deb"]["assets"].as_array().unwrap();
    for a in deb {
        check(a[0].as_str().unwrap());
    }
    let rpm = meta["generate-rpm"]["assets"].as_array().unwrap();
    for a in rpm {
        check(a["source"].as_str().unwrap());
    }
    for src in generated {
        let deb_has = deb.iter().any(|a| a[0].as_str() == Some(src));
        let rpm_has = rpm.iter().any(|a| a["source"].as_str() == Some(src));
        assert!(deb_has && rpm_has, "{src} not packaged in both");
    }
    // Instant Client is recommended, never required: the demo, replay and reports need none.
    let deb_meta = &meta["deb"];
    assert!(deb_meta["recommends"]
        .as_str()
        .unwrap()
        .contains("oracle-instantclient"));
    assert!(!deb_meta
        .get("depends")
        .and_then(|d| d.as_str())
        .unwrap_or("")
        .contains("oracle"));
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// FIPS 180-4 SHA-256, small and slow: enough to check a printed digest.
fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    let bits = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bits.to_be_bytes());
    for chunk in msg.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in chunk.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = h;
        for i in 0..64 {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let ch = (e & f) ^ (!e & g);
            let t1 = hh
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let maj = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(maj);
            hh = g;
            g = f;
            f = e;
            e = d.wrapping_add(t1);
            d = c;
            c = b;
            b = a;
            a = t1.wrapping_add(t2);
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 32];
    for (i, x) in h.iter().enumerate() {
        out[i * 4..i * 4 + 4].copy_from_slice(&x.to_be_bytes());
    }
    out
}

#[test]
fn the_sha256_here_is_right() {
    assert_eq!(
        hex(&sha256(b"abc")),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
    assert_eq!(
        hex(&sha256(b"")),
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    );
    // Two blocks of padding.
    assert_eq!(
        hex(&sha256(
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        )),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    );
}

//! A small ZIP writer (deflate, UTF-8 names, fixed timestamps: the same files give the same
//! archive, byte for byte). Enough for the offline bundle; no ZIP64, so at most 65 535 entries and
//! 4 GiB.

use std::io::Write;

use crate::util::{Result, bail};

/// 1980-01-01 00:00, the earliest MS-DOS date: archives do not depend on when they were made.
const DOS_DATE: u16 = (1 << 5) | 1;
const DOS_TIME: u16 = 0;
/// Bit 11: names are UTF-8.
const FLAGS: u16 = 1 << 11;
/// Made by: Unix (3), spec 2.0; so the permission bits below are read.
const MADE_BY: u16 = (3 << 8) | 20;
const NEEDED: u16 = 20;

/// One entry: a file (`Some(bytes)`) or a directory (`None`; its name ends with `/`).
pub(crate) type Entry = (String, Option<Vec<u8>>);

struct Central {
    name: String,
    crc: u32,
    compressed: u32,
    size: u32,
    method: u16,
    offset: u32,
    external: u32,
}

fn u16le(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn u32le(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn deflate(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
    enc.write_all(bytes).expect("writing to memory");
    enc.finish().expect("writing to memory")
}

/// The archive of `entries`, in the order given.
pub(crate) fn write(entries: &[Entry]) -> Result<Vec<u8>> {
    if entries.len() > usize::from(u16::MAX) {
        bail!("too many files for a ZIP without ZIP64: {}", entries.len());
    }
    let mut out = Vec::new();
    let mut central = Vec::with_capacity(entries.len());
    for (name, data) in entries {
        let is_dir = data.is_none();
        if name.is_empty() || name.starts_with('/') || name.contains('\\') || name.split('/').any(|p| p == "..") {
            bail!("not a portable path inside a ZIP: {name:?}");
        }
        if is_dir != name.ends_with('/') {
            bail!("ZIP entry {name:?}: directory names end with '/', file names do not");
        }
        let bytes = data.as_deref().unwrap_or_default();
        let mut crc = flate2::Crc::new();
        crc.update(bytes);
        let packed = deflate(bytes);
        let (method, stored) =
            if !is_dir && packed.len() < bytes.len() { (8u16, packed) } else { (0u16, bytes.to_vec()) };
        let (Ok(size), Ok(compressed), Ok(offset), Ok(name_len)) = (
            u32::try_from(bytes.len()),
            u32::try_from(stored.len()),
            u32::try_from(out.len()),
            u16::try_from(name.len()),
        ) else {
            bail!("too large for a ZIP without ZIP64: {name}");
        };
        u32le(&mut out, 0x0403_4b50);
        u16le(&mut out, NEEDED);
        u16le(&mut out, FLAGS);
        u16le(&mut out, method);
        u16le(&mut out, DOS_TIME);
        u16le(&mut out, DOS_DATE);
        u32le(&mut out, crc.sum());
        u32le(&mut out, compressed);
        u32le(&mut out, size);
        u16le(&mut out, name_len);
        u16le(&mut out, 0);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(&stored);
        // rw-r--r-- files, rwxr-xr-x directories (with the MS-DOS directory bit).
        let external = if is_dir { (0o040_755 << 16) | 0x10 } else { 0o100_644 << 16 };
        central.push(Central { name: name.clone(), crc: crc.sum(), compressed, size, method, offset, external });
    }
    let Ok(cd_start) = u32::try_from(out.len()) else { bail!("too large for a ZIP without ZIP64") };
    for c in &central {
        u32le(&mut out, 0x0201_4b50);
        u16le(&mut out, MADE_BY);
        u16le(&mut out, NEEDED);
        u16le(&mut out, FLAGS);
        u16le(&mut out, c.method);
        u16le(&mut out, DOS_TIME);
        u16le(&mut out, DOS_DATE);
        u32le(&mut out, c.crc);
        u32le(&mut out, c.compressed);
        u32le(&mut out, c.size);
        u16le(&mut out, c.name.len() as u16);
        u16le(&mut out, 0); // extra
        u16le(&mut out, 0); // comment
        u16le(&mut out, 0); // disk
        u16le(&mut out, 0); // internal attributes
        u32le(&mut out, c.external);
        u32le(&mut out, c.offset);
        out.extend_from_slice(c.name.as_bytes());
    }
    let Ok(cd_size) = u32::try_from(out.len() - cd_start as usize) else { bail!("too large for a ZIP without ZIP64") };
    u32le(&mut out, 0x0605_4b50);
    u16le(&mut out, 0);
    u16le(&mut out, 0);
    u16le(&mut out, central.len() as u16);
    u16le(&mut out, central.len() as u16);
    u32le(&mut out, cd_size);
    u32le(&mut out, cd_start);
    u16le(&mut out, 0);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn sample() -> Vec<Entry> {
        vec![
            ("nodeline/".into(), None),
            ("nodeline/index.html".into(), Some("<!doctype html>\n".repeat(200).into_bytes())),
            ("nodeline/public/".into(), None),
            ("nodeline/public/ünïcode ✓.txt".into(), Some(b"x".to_vec())),
            ("nodeline/empty".into(), Some(Vec::new())),
        ]
    }

    #[test]
    fn the_same_files_give_the_same_bytes() {
        assert_eq!(write(&sample()).unwrap(), write(&sample()).unwrap());
    }

    #[test]
    fn refuses_paths_that_would_escape() {
        for name in ["/abs", "../up", "a/../../b", "back\\slash", ""] {
            assert!(write(&[(name.into(), Some(vec![1]))]).is_err(), "{name}");
        }
        assert!(write(&[("dir".into(), None)]).is_err());
        assert!(write(&[("file/".into(), Some(vec![1]))]).is_err());
    }

    /// Python's `zipfile` (Python 3 is a prerequisite of the test suite) reads the archive back:
    /// an independent reader, not this module's own idea of the format.
    #[test]
    fn an_independent_reader_gets_the_files_back() {
        let dir = std::env::temp_dir().join(format!("xtask-zip-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.zip");
        std::fs::write(&path, write(&sample()).unwrap()).unwrap();
        let script = "import sys, zipfile, json\n\
            z = zipfile.ZipFile(sys.argv[1])\n\
            assert z.testzip() is None\n\
            print(json.dumps([[i.filename, i.file_size, i.is_dir(), (i.external_attr >> 16) & 0o777, z.read(i).decode()[:15]] for i in z.infolist()], ensure_ascii=False))";
        let out = Command::new("python3").arg("-c").arg(script).arg(&path).output().expect("python3 runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let listing = String::from_utf8(out.stdout).unwrap();
        assert_eq!(
            listing.trim(),
            r#"[["nodeline/", 0, true, 493, ""], ["nodeline/index.html", 3200, false, 420, "<!doctype html>"], ["nodeline/public/", 0, true, 493, ""], ["nodeline/public/ünïcode ✓.txt", 1, false, 420, "x"], ["nodeline/empty", 0, false, 420, ""]]"#
        );
        let _ = std::fs::remove_dir_all(dir);
    }
}

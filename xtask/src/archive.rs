//! The offline bundle's ZIP archive, written with the `zip` crate: deflate, UTF-8 names, fixed
//! timestamps and permissions, so the same files give the same archive, byte for byte. Names are
//! checked first: an archive made here never holds a path that leaves its folder.

use std::io::{Cursor, Write};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use crate::util::{Result, bail};

/// One entry: a file (`Some(bytes)`) or a directory (`None`; its name ends with `/`).
pub(crate) type Entry = (String, Option<Vec<u8>>);

/// The archive of `entries`, in the order given.
pub(crate) fn write(entries: &[Entry]) -> Result<Vec<u8>> {
    let mut zip = ZipWriter::new(Cursor::new(Vec::new()));
    // 1980-01-01 00:00, the earliest MS-DOS date: archives do not depend on when they were made.
    let base = SimpleFileOptions::default().last_modified_time(DateTime::default()).large_file(false);
    for (name, data) in entries {
        let is_dir = data.is_none();
        if name.is_empty() || name.starts_with('/') || name.contains('\\') || name.split('/').any(|p| p == "..") {
            bail!("not a portable path inside a ZIP: {name:?}");
        }
        if is_dir != name.ends_with('/') {
            bail!("ZIP entry {name:?}: directory names end with '/', file names do not");
        }
        let fail = |e: zip::result::ZipError| crate::util::Error(format!("ZIP entry {name:?}: {e}"));
        match data {
            // rwxr-xr-x directories, rw-r--r-- files.
            None => zip.add_directory(name.as_str(), base.unix_permissions(0o755)).map_err(fail)?,
            Some(bytes) => {
                // Deflated at the best level; an empty file stored.
                let file = base.unix_permissions(0o644);
                let options = if bytes.is_empty() {
                    file.compression_method(CompressionMethod::Stored)
                } else {
                    file.compression_method(CompressionMethod::Deflated).compression_level(Some(9))
                };
                zip.start_file(name.as_str(), options).map_err(fail)?;
                zip.write_all(bytes).map_err(|e| crate::util::Error(format!("ZIP entry {name:?}: {e}")))?;
            }
        }
    }
    let out = zip.finish().map_err(|e| crate::util::Error(format!("ZIP archive: {e}")))?;
    Ok(out.into_inner())
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

//! Compression: gzip and brotli of a file's bytes, and the precompressed copies `cargo xtask
//! build` writes next to every compressible file of the site (`x.wasm.gz`, `x.wasm.br`), so a host
//! that serves precompressed files (nginx `gzip_static`/`brotli_static`, Caddy `precompressed`,
//! most CDNs' origin rules) sends the smallest form without compressing on every request.

use std::io::Write;
use std::path::Path;

use crate::util::Result;

/// The extensions that get precompressed copies: text, scripts, WebAssembly, SVG.
const COMPRESSIBLE: [&str; 7] = ["html", "js", "mjs", "css", "wasm", "svg", "json"];

/// gzip of `bytes` at `level` (no file name, no time stamp: the same input, the same bytes).
pub(crate) fn gzip(bytes: &[u8], level: flate2::Compression) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), level);
    enc.write_all(bytes).expect("writing to memory");
    enc.finish().expect("writing to memory")
}

/// brotli of `bytes` at its best quality (11) and a 4 MB window, as hosts precompress.
pub(crate) fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = brotli::CompressorWriter::new(&mut out, 64 * 1024, 11, 22);
        enc.write_all(bytes).expect("writing to memory");
    }
    out
}

/// Whether `name` is a file worth a precompressed copy.
pub(crate) fn compressible(name: &str) -> bool {
    Path::new(name).extension().and_then(|e| e.to_str()).is_some_and(|e| COMPRESSIBLE.contains(&e))
}

/// Writes `NAME.gz` (best level) and `NAME.br` next to every compressible file under `dir`,
/// replacing older copies; returns how many files it compressed.
pub(crate) fn precompress(dir: &Path) -> Result<usize> {
    let mut count = 0;
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.filter_map(|e| e.ok()).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            count += precompress(&path)?;
        } else if compressible(&name) {
            let bytes = std::fs::read(&path)?;
            std::fs::write(dir.join(format!("{name}.gz")), gzip(&bytes, flate2::Compression::best()))?;
            std::fs::write(dir.join(format!("{name}.br")), brotli(&bytes))?;
            count += 1;
        }
    }
    Ok(count)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn both_encodings_unpack_to_the_input() {
        let text = "the kubelet renews its Lease every 10 s\n".repeat(200);
        let gz = gzip(text.as_bytes(), flate2::Compression::best());
        let mut back = String::new();
        flate2::read::GzDecoder::new(&gz[..]).read_to_string(&mut back).unwrap();
        assert_eq!(back, text);
        let br = brotli(text.as_bytes());
        let mut back = String::new();
        brotli::Decompressor::new(&br[..], 4096).read_to_string(&mut back).unwrap();
        assert_eq!(back, text);
        assert!(br.len() < text.len() / 10 && gz.len() < text.len() / 10);
        // Deterministic: the same build gives the same files.
        assert_eq!(gzip(text.as_bytes(), flate2::Compression::best()), gz);
    }

    #[test]
    fn precompresses_what_is_worth_it_in_every_folder() {
        let dir = std::env::temp_dir().join(format!("xtask-compress-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("public")).unwrap();
        std::fs::write(dir.join("index.html"), "<p>x</p>").unwrap();
        std::fs::write(dir.join("app_bg.wasm"), b"\0asm").unwrap();
        std::fs::write(dir.join("public").join("embed.js"), "x()").unwrap();
        std::fs::write(dir.join("shot.png"), b"\x89PNG").unwrap();
        assert_eq!(precompress(&dir).unwrap(), 3);
        for f in ["index.html.gz", "index.html.br", "app_bg.wasm.br", "public/embed.js.gz"] {
            assert!(dir.join(f).is_file(), "{f}");
        }
        assert!(!dir.join("shot.png.gz").exists());
        assert!(!dir.join("index.html.gz.gz").exists(), "copies are not compressed again");
        // Again: the copies are replaced, not compressed again.
        assert_eq!(precompress(&dir).unwrap(), 3);
        assert!(!dir.join("index.html.gz.br").exists());
        let _ = std::fs::remove_dir_all(dir);
    }
}

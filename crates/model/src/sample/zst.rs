//! zstd-compressed recordings (`.jsonl.zst`): the same lines, in zstd frames the writer starts
//! every [`FRAME_MS`] of sample time, so a reader seeks by frame. Readers recognise the form by
//! its magic bytes, never by the name.
//!
//! The writer flushes after every line, so a killed process leaves complete blocks: the frame
//! it was writing just has no end. Reading such a file stops at the last complete block, as a
//! truncated last line is tolerated in the plain form. Damage inside a frame is an error that
//! names the byte offset where that frame starts.

use std::io::{self, BufRead, Read, Seek, SeekFrom, Write};

/// The first bytes of a zstd frame (RFC 8878).
pub const MAGIC: [u8; 4] = [0x28, 0xB5, 0x2F, 0xFD];

/// Sample time covered by one frame: the most a seek decompresses before its target.
pub const FRAME_MS: i64 = 10 * 60_000;

/// zstd's default level: a day of lines compresses more than tenfold at little CPU.
pub const LEVEL: i32 = 3;

/// Whether `prefix` starts like a zstd stream.
pub fn is_zstd(prefix: &[u8]) -> bool {
    prefix.starts_with(&MAGIC)
}

/// Decompresses a stream of frames, tracking the compressed offset of the frame being read.
pub struct ZstdReader<R> {
    input: R,
    decoder: zstd::stream::raw::Decoder<'static>,
    /// Compressed bytes consumed so far, counted from `base`.
    consumed: u64,
    base: u64,
    frame_start: u64,
    in_frame: bool,
    truncated: bool,
    done: bool,
    /// Whether the frame being read gave any bytes yet.
    frame_gave: bool,
    /// Frames in a row that gave nothing.
    empty_run: EmptyFrames,
}

/// The most frames in a row without a byte of content a recording may hold: dgscope's
/// writer makes none (a killed writer leaves at most one), and each costs a decoder reset, so
/// a file of millions of empty frames is refused instead of read for minutes.
pub const MAX_EMPTY_FRAMES: usize = 1000;

/// Frames in a row that held nothing, counted where the frames are read (the stream's
/// decoder, the index's frame by frame).
#[derive(Debug, Default)]
pub struct EmptyFrames {
    run: usize,
    from: u64,
}

impl EmptyFrames {
    /// Counts the frame starting at `at`, which gave content or not; past
    /// [`MAX_EMPTY_FRAMES`] in a row, what to say and where the run starts.
    pub fn frame(&mut self, at: u64, gave: bool) -> Option<(u64, String)> {
        if gave {
            self.run = 0;
            return None;
        }
        if self.run == 0 {
            self.from = at;
        }
        self.run += 1;
        (self.run > MAX_EMPTY_FRAMES).then(|| {
            (
                self.from,
                format!(
                    "{} zstd frames in a row from here hold no line; dgscope writes none: the file is damaged or not a recording",
                    self.run
                ),
            )
        })
    }
}

impl<R: BufRead> ZstdReader<R> {
    /// A reader of `input`, whose first byte is at file offset `base` (for messages).
    pub fn new(input: R, base: u64) -> io::Result<Self> {
        Ok(ZstdReader {
            input,
            decoder: zstd::stream::raw::Decoder::new()?,
            consumed: 0,
            base,
            frame_start: base,
            in_frame: false,
            truncated: false,
            done: false,
            frame_gave: false,
            empty_run: EmptyFrames::default(),
        })
    }

    /// True once the input ended inside a frame (the writer was killed).
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    fn corrupt(&self, e: io::Error) -> io::Error {
        // zstd's own words for a frame whose window is past the decoder's limit: a valid
        // file written with `zstd --long`, not a damaged one.
        let what = if e.to_string().contains("too much memory") {
            format!(
                "the zstd frame starting at byte {} needs a larger window than dgscope decodes (written with zstd --long?); decompress it with `zstd -d --long=31` and read the plain file",
                self.frame_start
            )
        } else {
            format!(
                "the zstd frame starting at byte {} is damaged ({e}); the frames before it are intact",
                self.frame_start
            )
        };
        io::Error::new(io::ErrorKind::InvalidData, what)
    }
}

impl<R: BufRead> Read for ZstdReader<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        use zstd::stream::raw::{InBuffer, Operation, OutBuffer};
        if out.is_empty() {
            return Ok(0);
        }
        loop {
            if self.done {
                return Ok(0);
            }
            let avail = match self.input.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if avail.is_empty() {
                // Nothing left to read; the decoder may still hold output of the last block.
                let mut ob = OutBuffer::around(&mut *out);
                let r = self.decoder.run(&mut InBuffer::around(&[]), &mut ob);
                let n = ob.pos();
                if n > 0 {
                    return Ok(n);
                }
                if let Err(e) = r {
                    return Err(self.corrupt(e));
                }
                self.truncated = self.in_frame;
                self.done = true;
                return Ok(0);
            }
            if !self.in_frame {
                self.in_frame = true;
                self.frame_start = self.base + self.consumed;
            }
            let mut ib = InBuffer::around(avail);
            let mut ob = OutBuffer::around(&mut *out);
            let r = self.decoder.run(&mut ib, &mut ob);
            let (used, n) = (ib.pos(), ob.pos());
            self.input.consume(used);
            self.consumed += used as u64;
            self.frame_gave |= n > 0;
            match r {
                Ok(0) => {
                    // A frame ended; the next byte (if any) starts another.
                    self.in_frame = false;
                    self.decoder.reinit()?;
                    let gave = std::mem::take(&mut self.frame_gave);
                    if let Some((at, what)) = self.empty_run.frame(self.frame_start, gave) {
                        return Err(io::Error::new(
                            io::ErrorKind::InvalidData,
                            format!("byte {at}: {what}"),
                        ));
                    }
                }
                Ok(_) => {}
                Err(e) => return Err(self.corrupt(e)),
            }
            if n > 0 {
                return Ok(n);
            }
        }
    }
}

/// Where one frame starts in a compressed recording.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameRef {
    pub offset: u64,
    /// Whether the frame has its end (the last one of a killed writer has not).
    pub complete: bool,
}

/// What walking the frame headers found wrong.
#[derive(Debug)]
pub enum WalkError {
    Io(io::Error),
    /// Not a zstd frame (nor a skippable one) at this byte offset.
    BadFrame(u64),
}

fn read_exact_or_eof<R: Read>(r: &mut R, buf: &mut [u8]) -> io::Result<bool> {
    let mut got = 0;
    while got < buf.len() {
        match r.read(&mut buf[got..]) {
            Ok(0) => return Ok(false),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(true)
}

/// Lists the frames of a compressed recording by walking frame and block headers, skipping
/// the compressed data: cheap next to decompressing it. Stops at the end of the input or at
/// a frame cut short (then its `complete` is false).
pub fn frames<R: Read + Seek>(input: &mut io::BufReader<R>) -> Result<Vec<FrameRef>, WalkError> {
    let len = input.seek(SeekFrom::End(0)).map_err(WalkError::Io)?;
    input.seek(SeekFrom::Start(0)).map_err(WalkError::Io)?;
    let mut out = Vec::new();
    let mut pos = 0u64;
    // Where the reader is: moving forward within its buffer costs no read (a day has a
    // block per line, and a seek that drops the buffer per block would read it all again).
    let mut at = 0u64;
    let goto = |input: &mut io::BufReader<R>, to: u64, at: &mut u64| -> io::Result<()> {
        if to != *at {
            input.seek_relative(to as i64 - *at as i64)?;
            *at = to;
        }
        Ok(())
    };
    let mut head = [0u8; 4];
    while pos < len {
        let start = pos;
        goto(input, pos, &mut at).map_err(WalkError::Io)?;
        let ok = read_exact_or_eof(input, &mut head).map_err(WalkError::Io)?;
        at += 4;
        if !ok {
            out.push(FrameRef {
                offset: start,
                complete: false,
            });
            break;
        }
        let magic = u32::from_le_bytes(head);
        if magic & 0xFFFF_FFF0 == 0x184D_2A50 {
            // A skippable frame: its size follows.
            let mut size = [0u8; 4];
            let ok = read_exact_or_eof(input, &mut size).map_err(WalkError::Io)?;
            at += 4;
            if !ok {
                break;
            }
            pos = start + 8 + u64::from(u32::from_le_bytes(size));
            continue;
        }
        if head != MAGIC {
            return Err(WalkError::BadFrame(start));
        }
        let mut fhd = [0u8; 1];
        let ok = read_exact_or_eof(input, &mut fhd).map_err(WalkError::Io)?;
        at += 1;
        if !ok {
            out.push(FrameRef {
                offset: start,
                complete: false,
            });
            break;
        }
        let d = fhd[0];
        let fcs_flag = d >> 6;
        let single = d & 0x20 != 0;
        let checksum = d & 0x04 != 0;
        let dict = [0u64, 1, 2, 4][usize::from(d & 3)];
        let fcs = match fcs_flag {
            0 => u64::from(single),
            1 => 2,
            2 => 4,
            _ => 8,
        };
        pos = start + 5 + u64::from(!single) + dict + fcs;
        let mut complete = false;
        let mut bh = [0u8; 3];
        loop {
            if pos + 3 > len {
                break;
            }
            goto(input, pos, &mut at).map_err(WalkError::Io)?;
            let ok = read_exact_or_eof(input, &mut bh).map_err(WalkError::Io)?;
            at += 3;
            if !ok {
                break;
            }
            let h = u32::from(bh[0]) | u32::from(bh[1]) << 8 | u32::from(bh[2]) << 16;
            let last = h & 1 != 0;
            let size = u64::from(h >> 3);
            let body = match (h >> 1) & 3 {
                0 | 2 => size,
                1 => 1,
                _ => return Err(WalkError::BadFrame(start)),
            };
            pos += 3 + body;
            if last {
                pos += if checksum { 4 } else { 0 };
                complete = pos <= len;
                break;
            }
        }
        out.push(FrameRef {
            offset: start,
            complete,
        });
        if !complete {
            break;
        }
    }
    Ok(out)
}

/// Decompressed bytes handed over at a time, and chunks decompressed ahead at most.
const CHUNK: usize = 256 * 1024;
const CHUNKS_AHEAD: usize = 4;

/// What the decompressing thread sends: bytes, an error, or the end (truncated or not).
enum Chunk {
    Bytes(Vec<u8>),
    Failed(io::Error),
    End { truncated: bool },
}

/// A [`ZstdReader`] run on a thread of its own, so decompression overlaps parsing: on a day
/// it is a quarter of a full pass (`benches/recording_load.rs`). Only large byte chunks cross
/// threads, never parsed values, so nothing allocated on one thread is freed on the other.
pub struct ZstdAhead {
    rx: Option<std::sync::mpsc::Receiver<Chunk>>,
    cur: Vec<u8>,
    pos: usize,
    truncated: bool,
}

impl ZstdAhead {
    fn new(mut z: ZstdReader<io::BufReader<std::fs::File>>) -> io::Result<Self> {
        let (tx, rx) = std::sync::mpsc::sync_channel(CHUNKS_AHEAD);
        std::thread::Builder::new()
            .name("dgscope-unzstd".into())
            .spawn(move || loop {
                let mut buf = vec![0; CHUNK];
                let mut n = 0;
                let msg = loop {
                    match z.read(&mut buf[n..]) {
                        Ok(0) => break None,
                        Ok(k) => {
                            n += k;
                            if n == buf.len() {
                                break None;
                            }
                        }
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                        Err(e) => break Some(Chunk::Failed(e)),
                    }
                };
                let at_end = n < buf.len();
                if n > 0 {
                    buf.truncate(n);
                    if tx.send(Chunk::Bytes(buf)).is_err() {
                        return; // the reader was dropped
                    }
                }
                if let Some(m) = msg {
                    let _ = tx.send(m);
                    return;
                }
                if at_end {
                    let _ = tx.send(Chunk::End {
                        truncated: z.truncated(),
                    });
                    return;
                }
            })?;
        Ok(ZstdAhead {
            rx: Some(rx),
            cur: Vec::new(),
            pos: 0,
            truncated: false,
        })
    }
}

impl Read for ZstdAhead {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ZstdAhead {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos == self.cur.len() {
            let Some(rx) = &self.rx else {
                return Ok(&[]);
            };
            match rx.recv() {
                Ok(Chunk::Bytes(b)) => {
                    self.cur = b;
                    self.pos = 0;
                }
                Ok(Chunk::Failed(e)) => {
                    self.rx = None;
                    return Err(e);
                }
                Ok(Chunk::End { truncated }) => {
                    self.truncated = truncated;
                    self.rx = None;
                }
                // The thread ended without saying why (it panicked): an error, not a short file.
                Err(_) => {
                    self.rx = None;
                    return Err(io::Error::other("the zstd decompression thread stopped"));
                }
            }
        }
        Ok(&self.cur[self.pos..])
    }

    fn consume(&mut self, n: usize) {
        self.pos = (self.pos + n).min(self.cur.len());
    }
}

/// A recording file opened for reading, decompressed when it starts with [`MAGIC`].
pub enum FileInput {
    Plain(io::BufReader<std::fs::File>),
    Zstd(ZstdAhead),
}

impl FileInput {
    /// Reads the first bytes to tell the forms apart (a FIFO is read, never seeked, here).
    pub fn new(file: std::fs::File) -> io::Result<Self> {
        let mut plain = io::BufReader::with_capacity(256 * 1024, file);
        let zstd = loop {
            match plain.fill_buf() {
                Ok(b) => break is_zstd(b),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        };
        Ok(if zstd {
            FileInput::Zstd(ZstdAhead::new(ZstdReader::new(plain, 0)?)?)
        } else {
            FileInput::Plain(plain)
        })
    }

    pub fn is_zstd(&self) -> bool {
        matches!(self, FileInput::Zstd(_))
    }

    /// The compressed form ended inside a frame (a killed writer).
    pub fn truncated(&self) -> bool {
        match self {
            FileInput::Plain(_) => false,
            FileInput::Zstd(z) => z.truncated,
        }
    }
}

impl Read for FileInput {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            FileInput::Plain(r) => r.read(buf),
            FileInput::Zstd(r) => r.read(buf),
        }
    }
}

impl BufRead for FileInput {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        match self {
            FileInput::Plain(r) => r.fill_buf(),
            FileInput::Zstd(r) => r.fill_buf(),
        }
    }

    fn consume(&mut self, n: usize) {
        match self {
            FileInput::Plain(r) => r.consume(n),
            FileInput::Zstd(r) => r.consume(n),
        }
    }
}

/// Segments of sample time, each a zstd frame of the compressed form (and, in recording
/// version 2, where every slot's chain of changes lines starts again in either form): a
/// sample starts a new segment when it is [`FRAME_MS`] past the segment's first, or earlier
/// than it. Marks do not count.
#[derive(Debug, Default, Clone)]
pub struct Segments {
    start: Option<i64>,
    id: u64,
}

impl Segments {
    /// Sees a sample at `t_ms`: whether it starts a segment (the first sample does).
    pub fn starts(&mut self, t_ms: i64) -> bool {
        match self.start {
            Some(s) if t_ms - s < FRAME_MS && t_ms >= s => false,
            Some(_) => {
                self.id += 1;
                self.start = Some(t_ms);
                true
            }
            None => {
                self.start = Some(t_ms);
                true
            }
        }
    }

    /// The segment of the latest sample seen (0 for the first).
    pub fn id(&self) -> u64 {
        self.id
    }
}

/// Where recording lines go: straight out, or through zstd frames of [`FRAME_MS`] each.
pub enum Sink<W: io::Write> {
    Plain(W),
    Zstd {
        enc: Option<zstd::stream::write::Encoder<'static, W>>,
        /// Where the frames start.
        segments: Segments,
    },
}

/// A new frame encoder with a content checksum, so damage inside a frame is caught.
pub fn encoder<W: io::Write>(out: W) -> io::Result<zstd::stream::write::Encoder<'static, W>> {
    let mut e = zstd::stream::write::Encoder::new(out, LEVEL)?;
    e.include_checksum(true)?;
    Ok(e)
}

impl<W: io::Write> Sink<W> {
    pub fn zstd(out: W) -> io::Result<Self> {
        Ok(Sink::Zstd {
            enc: Some(encoder(out)?),
            segments: Segments::default(),
        })
    }

    /// Writes one whole line stamped `t` (ms; `None` for the header) and flushes it.
    pub fn write_line(&mut self, line: &[u8], t: Option<i64>) -> io::Result<()> {
        match self {
            Sink::Plain(w) => {
                w.write_all(line)?;
                w.flush()
            }
            Sink::Zstd { enc, segments } => {
                // The first segment's frame is open already (it holds the header).
                if t.is_some_and(|t| segments.starts(t)) && segments.id() > 0 {
                    let e = enc
                        .take()
                        .ok_or_else(|| io::Error::other("writer closed"))?;
                    *enc = Some(encoder(e.finish()?)?);
                }
                let e = enc
                    .as_mut()
                    .ok_or_else(|| io::Error::other("writer closed"))?;
                e.write_all(line)?;
                // Ends the block: everything written so far can be decompressed.
                e.flush()
            }
        }
    }

    /// Ends the open frame and returns the output.
    pub fn finish(self) -> io::Result<W> {
        match self {
            Sink::Plain(w) => Ok(w),
            Sink::Zstd { enc, .. } => enc
                .ok_or_else(|| io::Error::other("writer closed"))?
                .finish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Cursor, Write};

    fn two_frames() -> (Vec<u8>, usize) {
        let mut out = Vec::new();
        let mut e = zstd::stream::write::Encoder::new(&mut out, LEVEL).unwrap();
        e.include_checksum(true).unwrap();
        e.write_all(b"line one\n").unwrap();
        e.flush().unwrap();
        e.write_all(b"line two\n").unwrap();
        e.finish().unwrap();
        let second = out.len();
        let mut e = zstd::stream::write::Encoder::new(&mut out, LEVEL).unwrap();
        e.write_all(b"line three\n").unwrap();
        e.flush().unwrap();
        drop(e);
        (out, second)
    }

    #[test]
    fn frames_are_found_without_decompressing_and_an_open_one_is_marked() {
        let (bytes, second) = two_frames();
        let f = frames(&mut io::BufReader::new(Cursor::new(&bytes))).unwrap();
        assert_eq!(
            f,
            [
                FrameRef {
                    offset: 0,
                    complete: true
                },
                FrameRef {
                    offset: second as u64,
                    complete: false
                }
            ]
        );
        let mut r = ZstdReader::new(Cursor::new(&bytes), 0).unwrap();
        let mut text = String::new();
        r.read_to_string(&mut text).unwrap();
        assert_eq!(text, "line one\nline two\nline three\n");
        assert!(r.truncated());
    }

    #[test]
    fn damage_names_the_frame_offset() {
        let (mut bytes, second) = two_frames();
        // Break the first frame's checksum.
        bytes[second - 1] ^= 0xff;
        let mut r = ZstdReader::new(Cursor::new(&bytes), 0).unwrap();
        let mut text = String::new();
        let err = r.read_to_string(&mut text).unwrap_err().to_string();
        assert!(
            err.starts_with("the zstd frame starting at byte 0 is damaged"),
            "{err}"
        );
    }
}

// libjpeg(-turbo), for WidgetGraphics only (the drawing processes decode JPEG; the daemon never
// links it). Found by pkg-config `libjpeg`; Debian: libjpeg-dev (libjpeg62-turbo-dev).
//
// libjpeg reports a fatal error by calling `error_exit`, which must not return: the default one
// exits the process. `owk_jpeg_decode` turns errors into a return value with setjmp/longjmp
// (which Swift cannot do), and counts any warning (a truncated file, corrupt data) as an error,
// so a damaged file draws nothing rather than a grey remainder.
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>

struct owk_jpeg_error {
    struct jpeg_error_mgr mgr;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

static void owk_jpeg_error_exit(j_common_ptr cinfo) {
    struct owk_jpeg_error *e = (struct owk_jpeg_error *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, e->message);
    longjmp(e->jump, 1);
}

static void owk_jpeg_emit_message(j_common_ptr cinfo, int level) {
    // level -1: a warning (corrupt data, premature end); >= 0: trace messages, ignored.
    if (level < 0) owk_jpeg_error_exit(cinfo);
}

static void owk_jpeg_progress(j_common_ptr cinfo) {
    // A progressive file may have any number of scans, each a pass over the whole image; real
    // ones have about 10. Stop a crafted one that would spend minutes of CPU.
    if (cinfo->is_decompressor && ((j_decompress_ptr)cinfo)->input_scan_number > 100) {
        struct owk_jpeg_error *e = (struct owk_jpeg_error *)cinfo->err;
        snprintf(e->message, sizeof e->message, "more than 100 scans");
        longjmp(e->jump, 1);
    }
}

/// Decodes the JPEG `data` (`size` bytes) into `pixels`: `height` rows of `stride` bytes, each
/// pixel a native-endian 0xAARRGGBB word with alpha 255 (Cairo's ARGB32). The file must be
/// `width` × `height` pixels as stored. Returns 0, or -1 with the reason in `message`
/// (`message_size` bytes, NUL-terminated). Reentrant: no state outside its arguments.
static inline int owk_jpeg_decode(const unsigned char *data, unsigned long size, unsigned char *pixels,
                                  int width, int height, int stride, char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    struct owk_jpeg_error err;
    struct jpeg_progress_mgr progress;
    memset(&cinfo, 0, sizeof cinfo);
    err.message[0] = 0;
    cinfo.err = jpeg_std_error(&err.mgr);
    err.mgr.error_exit = owk_jpeg_error_exit;
    err.mgr.emit_message = owk_jpeg_emit_message;
    if (setjmp(err.jump)) {
        snprintf(message, message_size, "%s", err.message[0] ? err.message : "libjpeg failed");
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    progress.progress_monitor = owk_jpeg_progress;
    cinfo.progress = &progress;
    jpeg_mem_src(&cinfo, data, size);
    jpeg_read_header(&cinfo, TRUE);
    if ((int)cinfo.image_width != width || (int)cinfo.image_height != height) {
        snprintf(message, message_size, "the file is %ux%u pixels, not the %dx%d its header said",
                 cinfo.image_width, cinfo.image_height, width, height);
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    cinfo.out_color_space = JCS_EXT_BGRA;
#else
    cinfo.out_color_space = JCS_EXT_ARGB;
#endif
    jpeg_start_decompress(&cinfo);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = pixels + (size_t)cinfo.output_scanline * (size_t)stride;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

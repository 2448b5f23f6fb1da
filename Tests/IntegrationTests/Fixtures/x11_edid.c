/* Gives a RandR output an EDID, as a monitor plugged into it would: `x11_edid OUTPUT ABC NAME
 * SERIAL` sets the output's EDID property to a base block of manufacturer ABC, display name NAME
 * and serial SERIAL (MonitorTests: Xorg's dummy outputs have none). Exit 0, or 1 with a line. */
#include <X11/Xatom.h>
#include <X11/Xlib.h>
#include <X11/extensions/Xrandr.h>
#include <stdio.h>
#include <string.h>

static void descriptor(unsigned char *edid, int at, unsigned char tag, const char *text) {
    edid[at + 3] = tag;
    size_t n = strlen(text) < 13 ? strlen(text) : 13;
    memset(edid + at + 5, ' ', 13);
    memcpy(edid + at + 5, text, n);
    if (n < 13) edid[at + 5 + n] = '\n';
}

int main(int argc, char **argv) {
    if (argc != 5 || strlen(argv[2]) != 3) { fprintf(stderr, "usage: x11_edid OUTPUT ABC NAME SERIAL\n"); return 1; }
    Display *d = XOpenDisplay(NULL);
    if (!d) { fprintf(stderr, "x11_edid: no display\n"); return 1; }
    unsigned char edid[128] = {0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0};
    unsigned id = ((argv[2][0] - 64) & 31) << 10 | ((argv[2][1] - 64) & 31) << 5 | ((argv[2][2] - 64) & 31);
    edid[8] = id >> 8; edid[9] = id & 0xff;
    edid[18] = 1; edid[19] = 4;   /* EDID 1.4 */
    descriptor(edid, 72, 0xfc, argv[3]);
    descriptor(edid, 90, 0xff, argv[4]);
    unsigned sum = 0;
    for (int i = 0; i < 127; i++) sum += edid[i];
    edid[127] = (256 - sum % 256) % 256;
    XRRScreenResources *r = XRRGetScreenResources(d, DefaultRootWindow(d));
    for (int i = 0; r && i < r->noutput; i++) {
        XRROutputInfo *o = XRRGetOutputInfo(d, r, r->outputs[i]);
        if (o && strcmp(o->name, argv[1]) == 0) {
            XRRChangeOutputProperty(d, r->outputs[i], XInternAtom(d, "EDID", False), XA_INTEGER, 8, PropModeReplace, edid, 128);
            XSync(d, False);
            return 0;
        }
    }
    fprintf(stderr, "x11_edid: no output %s\n", argv[1]);
    return 1;
}

/* A normal application window of one flat colour, for the desktop tests to open over the
 * widgets: an ordinary GTK 3 toplevel (X11 or Wayland, as GDK_BACKEND says), titled TITLE,
 * WIDTH x HEIGHT, asked to be at (X, Y) (window managers that honour a program's position do;
 * on Wayland the test moves it with the compositor's own commands), magenta (#ff00ff).
 *
 *   cover_window TITLE X Y WIDTH HEIGHT
 *
 * Runs until killed. Built by the tests with `cc … $(pkg-config --cflags --libs gtk+-3.0)`. */
#include <gtk/gtk.h>
#include <stdlib.h>

static gboolean draw(GtkWidget *widget, cairo_t *cr, gpointer data) {
    (void)widget; (void)data;
    cairo_set_source_rgb(cr, 1, 0, 1);
    cairo_paint(cr);
    return TRUE;
}

int main(int argc, char **argv) {
    if (argc != 6) { g_printerr("usage: %s TITLE X Y WIDTH HEIGHT\n", argv[0]); return 2; }
    gtk_init(&argc, &argv);
    GtkWidget *window = gtk_window_new(GTK_WINDOW_TOPLEVEL);
    gtk_window_set_title(GTK_WINDOW(window), argv[1]);
    gtk_window_set_default_size(GTK_WINDOW(window), atoi(argv[4]), atoi(argv[5]));
    gtk_window_move(GTK_WINDOW(window), atoi(argv[2]), atoi(argv[3]));
    gtk_widget_set_app_paintable(window, TRUE);
    g_signal_connect(window, "draw", G_CALLBACK(draw), NULL);
    g_signal_connect(window, "destroy", G_CALLBACK(gtk_main_quit), NULL);
    gtk_widget_show_all(window);
    gtk_main();
    return 0;
}

// ncursesw for Swift: the wide-character API (SwiftPM drops pkg-config's -D_XOPEN_SOURCE, so
// NCURSES_WIDECHAR is set here) and functions for what Swift cannot import (macros,
// wcwidth, signal-safe terminal restore).
#ifndef CNCURSES_H
#define CNCURSES_H

#define NCURSES_WIDECHAR 1
#include <ncursesw/curses.h>
#include <stdint.h>

/// Style bits of a cell, as QnATerminal's `CellStyle` packs them.
enum {
  QNA_STYLE_BOLD = 1,
  QNA_STYLE_REVERSE = 2,
  QNA_STYLE_UNDERLINE = 4,
  QNA_STYLE_DIM = 8,
};

/// Key codes given to the bracketed-paste markers with `define_key`.
enum {
  QNA_KEY_PASTE_START = 01001,
  QNA_KEY_PASTE_END = 01002,
};

/// Columns the character takes in this locale: 0 for combining marks, 2 for wide ones, -1
/// for non-printable ones.
int qna_wcwidth(int32_t character);

/// Writes one cell: a spacing character and up to four combining ones, NUL-terminated.
int qna_put_cell(WINDOW *window, int row, int column, const wchar_t *text, unsigned style,
                 short pair);

WINDOW *qna_stdscr(void);
void qna_window_size(WINDOW *window, int *rows, int *columns);

/// Asks for mouse-wheel reports only (no click handling, so no click delay).
void qna_enable_wheel(void);
/// After KEY_MOUSE: -1 wheel up, 1 wheel down, 0 anything else.
int qna_wheel_direction(void);

/// The terminal's size from the kernel (after SIGWINCH); 0 on success.
int qna_terminal_size(int fd, int *rows, int *columns);

/// Saves the terminal's current modes and, on a crash signal, restores them (and leaves the
/// alternate screen, paste and mouse modes) before the default action runs. Signal-safe.
void qna_install_crash_restore(int tty, int message_fd);

/// Puts back the crash handlers that were there before (once the terminal is given back).
void qna_remove_crash_restore(void);

#endif

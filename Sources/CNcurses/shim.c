#define _XOPEN_SOURCE 700
#include "CNcurses.h"

#include <signal.h>
#include <sys/ioctl.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>

int qna_wcwidth(int32_t character) { return wcwidth((wchar_t)character); }

int qna_put_cell(WINDOW *window, int row, int column, const wchar_t *text, unsigned style,
                 short pair) {
  attr_t attributes = A_NORMAL;
  if (style & QNA_STYLE_BOLD) attributes |= A_BOLD;
  if (style & QNA_STYLE_REVERSE) attributes |= A_REVERSE;
  if (style & QNA_STYLE_UNDERLINE) attributes |= A_UNDERLINE;
  if (style & QNA_STYLE_DIM) attributes |= A_DIM;
  cchar_t cell;
  if (setcchar(&cell, text, attributes, pair, NULL) != OK) return ERR;
  return mvwadd_wch(window, row, column, &cell);
}

WINDOW *qna_stdscr(void) { return stdscr; }

void qna_window_size(WINDOW *window, int *rows, int *columns) {
  int y, x;
  getmaxyx(window, y, x);
  *rows = y;
  *columns = x;
}

void qna_enable_wheel(void) {
  mouseinterval(0);
  mousemask(BUTTON4_PRESSED | BUTTON5_PRESSED, NULL);
}

int qna_wheel_direction(void) {
  MEVENT event;
  if (getmouse(&event) != OK) return 0;
  if (event.bstate & BUTTON4_PRESSED) return -1;
  if (event.bstate & BUTTON5_PRESSED) return 1;
  return 0;
}

int qna_terminal_size(int fd, int *rows, int *columns) {
  struct winsize size;
  if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return -1;
  *rows = size.ws_row;
  *columns = size.ws_col;
  return 0;
}

static struct termios saved_modes;
static int saved_tty = -1;
static int crash_message_fd = -1;

static void restore_on_crash(int signal_number) {
  // Paste and mouse modes off, attributes reset, cursor shown, cursor keys back to normal
  // mode (rmkx), alternate screen left.
  static const char reset[] =
      "\033[?2004l\033[?1000l\033[?1006l\033[0m\033[?25h\033[?1l\033>\033[?1049l\r\n";
  static const char message[] = "qna: crashed; the terminal was restored (details in the log)\n";
  if (saved_tty >= 0) {
    ssize_t ignored = write(saved_tty, reset, sizeof reset - 1);
    (void)ignored;
    tcsetattr(saved_tty, TCSANOW, &saved_modes);
  }
  if (crash_message_fd >= 0) {
    ssize_t ignored = write(crash_message_fd, message, sizeof message - 1);
    (void)ignored;
  }
  signal(signal_number, SIG_DFL);
  raise(signal_number);
}

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE};
#define CRASH_SIGNAL_COUNT (sizeof crash_signals / sizeof crash_signals[0])
static struct sigaction previous_actions[CRASH_SIGNAL_COUNT];
static int installed = 0;

void qna_install_crash_restore(int tty, int message_fd) {
  if (installed || tcgetattr(tty, &saved_modes) != 0) return;
  saved_tty = tty;
  crash_message_fd = message_fd;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_handler = restore_on_crash;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  for (unsigned i = 0; i < CRASH_SIGNAL_COUNT; i++) {
    sigaction(crash_signals[i], &action, &previous_actions[i]);
  }
  installed = 1;
}

void qna_remove_crash_restore(void) {
  if (!installed) return;
  for (unsigned i = 0; i < CRASH_SIGNAL_COUNT; i++) {
    sigaction(crash_signals[i], &previous_actions[i], NULL);
  }
  installed = 0;
  saved_tty = -1;
}

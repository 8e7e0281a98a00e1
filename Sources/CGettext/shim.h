// GNU gettext as glibc has it (libintl.h), which Swift's Glibc module does not import.
#include <libintl.h>

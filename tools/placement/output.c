/* Machine-readable output shared by the sub-commands (--format csv|json). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "commands.h"

void out_json_number(FILE *f, double x)
{
    /* JSON has no NaN or infinity. */
    if (isfinite(x))
        fprintf(f, "%.17g", x);
    else
        fputs("null", f);
}

void out_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++)
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", (unsigned)(unsigned char)*s);
        else
            fputc(*s, f);
    fputc('"', f);
}

void out_csv_field(FILE *f, const char *s)
{
    /* RFC 4180: quote a field holding a comma, a quote or a line break. */
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

int out_format(const char *text)
{
    return !strcmp(text, "table") ? OUT_TABLE : !strcmp(text, "csv") ? OUT_CSV
                                              : !strcmp(text, "json") ? OUT_JSON : -1;
}

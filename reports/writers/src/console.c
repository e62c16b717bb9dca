/*
 * The console's view of a run: the counts per status, the matrix with
 * aligned columns and the verdict (dmlconf_matrix_print).
 */
#include "report_internal.h"

#include <stdlib.h>
#include <string.h>

static const char *level_text(dmlconf_feature_level level)
{
    const char *name = dmlconf_feature_level_name(level);
    return name ? name : "none";
}

/* ---- console ------------------------------------------------------------- */

#define ANSI_RESET  "\033[0m"
#define ANSI_BOLD   "\033[1m"
#define ANSI_DIM    "\033[2m"
#define ANSI_RED    "\033[31m"
#define ANSI_GREEN  "\033[32m"
#define ANSI_YELLOW "\033[33m"

static const char *cell_color(const dmlconf_matrix_cell *cell, bool above_target)
{
    if (dmlconf_matrix_cell_empty(cell) || above_target)
        return ANSI_DIM;
    if (cell->failed > 0)
        return ANSI_RED;
    if (cell->skipped > 0)
        return ANSI_YELLOW;
    return ANSI_GREEN;
}

static void cell_text(const dmlconf_matrix_cell *cell, char *buf, size_t size)
{
    if (dmlconf_matrix_cell_empty(cell))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%llu/%llu/%llu", (unsigned long long)cell->passed, (unsigned long long)cell->failed,
                 (unsigned long long)cell->skipped);
}

/* Prints text left-aligned in width columns, coloured when color is set. */
static void print_padded(FILE *out, const char *text, int width, const char *color, bool use_color)
{
    if (use_color && color)
        fprintf(out, "%s%-*s%s", color, width, text, ANSI_RESET);
    else
        fprintf(out, "%-*s", width, text);
}

static const char *type_text(dmlconf_data_type type)
{
    const char *name = dmlconf_data_type_name(type);
    return name ? name : "?";
}

static const char *op_text(dmlconf_operator op)
{
    const char *name = dmlconf_operator_name(op);
    return name ? name : "?";
}

/* Lists what the run did not cover, one line per need. */
static void print_gaps(FILE *out, const dmlconf_matrix *matrix)
{
    int width = 0;

    if (matrix->gap_count == 0)
        return;
    for (size_t i = 0; i < matrix->gap_count; ++i)
    {
        int w = (int)strlen(matrix->gaps[i].needs);
        if (w > width)
            width = w;
    }
    fprintf(out, "\nnot covered (cases the backend does not support, by what they need):\n");
    for (size_t i = 0; i < matrix->gap_count; ++i)
    {
        const dmlconf_matrix_gap *gap = &matrix->gaps[i];
        fprintf(out, "  %-*s  %llu %scase%s", width, gap->needs, (unsigned long long)gap->cases,
                gap->negative == gap->cases ? "negative " : "", gap->cases == 1 ? "" : "s");
        if (gap->negative && gap->negative < gap->cases)
            fprintf(out, " (%llu negative)", (unsigned long long)gap->negative);
        if (gap->lowest_level != DMLCONF_FEATURE_LEVEL_NONE)
            fprintf(out, ", from level %s", level_text(gap->lowest_level));
        fputc('\n', out);
    }
}

void dmlconf_matrix_print(FILE *out, const dmlconf_matrix *matrix, bool color)
{
    int op_width = (int)strlen("conformant");
    int type_width = (int)strlen("type");
    int widths[DMLCONF_MATRIX_MAX_COLUMNS];
    char text[80];
    dmlconf_run_verdict verdict;

    /* Counts per status, failures in red. */
    fprintf(out, "%llu cases", (unsigned long long)matrix->case_count);
    for (unsigned s = 0, shown = 0; s < DMLCONF_STATUS_COUNT; ++s)
    {
        const char *tint = NULL;
        if (matrix->status_counts[s] == 0)
            continue;
        switch (dmlconf_status_classify((dmlconf_status)s))
        {
        case DMLCONF_CLASS_PASSED:
            tint = ANSI_GREEN;
            break;
        case DMLCONF_CLASS_FAILED:
            tint = ANSI_RED;
            break;
        case DMLCONF_CLASS_SKIPPED:
            tint = ANSI_YELLOW;
            break;
        }
        snprintf(text, sizeof(text), "%llu %s", (unsigned long long)matrix->status_counts[s],
                 report_status_text((dmlconf_status)s));
        fputs(shown++ ? ", " : ": ", out);
        print_padded(out, text, 0, tint, color);
    }
    if (matrix->unknown_status_count)
        fprintf(out, ", %llu unknown", (unsigned long long)matrix->unknown_status_count);
    fputc('\n', out);

    /* Column widths from the content. */
    for (size_t r = 0; r < matrix->row_count; ++r)
    {
        int w = (int)strlen(op_text(matrix->rows[r].op));
        if (w > op_width)
            op_width = w;
        w = (int)strlen(type_text(matrix->rows[r].data_type));
        if (w > type_width)
            type_width = w;
    }
    for (size_t c = 0; c < matrix->column_count; ++c)
    {
        int w = (int)strlen(matrix->columns[c].label);
        if (w < 5)
            w = 5; /* "above" */
        for (size_t r = 0; r <= matrix->row_count; ++r)
        {
            const dmlconf_matrix_cell *cell = r < matrix->row_count ? &matrix->rows[r].cells[c] : &matrix->totals[c];
            cell_text(cell, text, sizeof(text));
            if ((int)strlen(text) > w)
                w = (int)strlen(text);
        }
        widths[c] = w;
    }

    fprintf(out, "\nfeature-level matrix (passed/failed/skipped; a case counts from its minimum level up; target %s)\n",
            level_text(matrix->target_level));
    print_padded(out, "operator", op_width, ANSI_BOLD, color);
    fputs("  ", out);
    print_padded(out, "type", type_width, ANSI_BOLD, color);
    for (size_t c = 0; c < matrix->column_count; ++c)
    {
        fputs("  ", out);
        print_padded(out, matrix->columns[c].label, widths[c], ANSI_BOLD, color);
    }
    fputc('\n', out);

    for (size_t r = 0; r <= matrix->row_count; ++r)
    {
        const bool total = r == matrix->row_count;
        print_padded(out, total ? "all" : op_text(matrix->rows[r].op), op_width, NULL, color);
        fputs("  ", out);
        print_padded(out, total ? "" : type_text(matrix->rows[r].data_type), type_width, NULL, color);
        for (size_t c = 0; c < matrix->column_count; ++c)
        {
            const dmlconf_matrix_cell *cell = total ? &matrix->totals[c] : &matrix->rows[r].cells[c];
            cell_text(cell, text, sizeof(text));
            fputs("  ", out);
            print_padded(out, text, widths[c], cell_color(cell, matrix->columns[c].above_target), color);
        }
        fputc('\n', out);
    }

    print_padded(out, "conformant", op_width, NULL, color);
    fputs("  ", out);
    print_padded(out, "", type_width, NULL, color);
    for (size_t c = 0; c < matrix->column_count; ++c)
    {
        const char *word = dmlconf_matrix_column_word(matrix, c);
        fputs("  ", out);
        print_padded(out, word, widths[c],
                     matrix->columns[c].above_target                   ? ANSI_DIM
                     : dmlconf_matrix_column_conformant(matrix, c)     ? ANSI_GREEN
                     : dmlconf_matrix_column_partly_covered(matrix, c) ? ANSI_YELLOW
                                                                       : ANSI_RED,
                     color);
    }
    fputc('\n', out);
    print_gaps(out, matrix);

    dmlconf_matrix_verdict(matrix, &verdict);
    fputc('\n', out);
    dmlconf_verdict_print(out, &verdict, color);
}

void dmlconf_verdict_print(FILE *out, const dmlconf_run_verdict *verdict, bool color)
{
    fputs("verdict: ", out);
    if (color)
        fprintf(out, "%s%s%s%s", ANSI_BOLD,
                verdict->exit_status == DMLCONF_EXIT_PASSED   ? ANSI_GREEN
                : verdict->exit_status == DMLCONF_EXIT_FAILED ? ANSI_RED
                                                              : ANSI_YELLOW,
                verdict->text, ANSI_RESET);
    else
        fputs(verdict->text, out);
    fprintf(out, " (%s)\nscope: %s\n", verdict->detail, verdict->scope_text);
    if (verdict->baseline != DMLCONF_BASELINE_NONE)
        fprintf(out, "baseline: %s\n", verdict->baseline_text);
}

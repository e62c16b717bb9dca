/*
 * The charts of report.html, drawn as inline SVG (no script): bar charts of
 * counts on a log scale (the error/tolerance and ULP histograms), and where
 * the errors fall along the scan axis. Every bar carries a <title> with its
 * exact numbers, so hovering tells what the picture only suggests.
 */
#include "report_internal.h"

#include <math.h>
#include <string.h>

/* ---- counts on a log scale ----------------------------------------------------- */

void report_svg_count_chart(FILE *out, const report_count_chart *chart)
{
    const bool small = chart->width < 400.0;
    const double left = small ? 8.0 : 70.0;
    const double right = small ? 8.0 : 20.0;
    const double top = small ? 8.0 : 24.0;
    const double bottom = small ? 22.0 : 56.0;
    const double plot_width = chart->width - left - right;
    const double plot_height = chart->height - top - bottom;
    const double slot = plot_width / (double)(chart->bins ? chart->bins : 1);
    uint64_t max = 0;
    double scale;

    for (size_t i = 0; i < chart->bins; ++i)
    {
        if (chart->counts[i] > max)
            max = chart->counts[i];
    }
    scale = max > 0 ? plot_height / log10(1.0 + (double)max) : 0.0;

    fputs("<svg", out);
    if (chart->id)
        fprintf(out, " id=\"%s\"", chart->id);
    fprintf(out, " class=\"chart\" role=\"img\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n<title>",
            chart->width, chart->height, chart->width, chart->height);
    report_xml_escape(out, chart->title, false);
    fputs("</title>\n", out);

    /* Grid lines at powers of ten. */
    for (uint64_t tick = 1; !small && max > 0 && tick <= max; tick *= 10)
    {
        double y = top + plot_height - scale * log10(1.0 + (double)tick);
        fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", left, y,
                left + plot_width, y);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%llu</text>\n", left - 6.0, y + 4.0,
                (unsigned long long)tick);
        if (tick > UINT64_MAX / 10)
            break;
    }
    for (size_t i = 0; i < chart->bins; ++i)
    {
        const uint64_t count = chart->counts[i];
        const double bar_height = count > 0 ? scale * log10(1.0 + (double)count) : 0.0;
        const double x = left + slot * (double)i + slot * 0.15;
        const double y = top + plot_height - bar_height;

        fprintf(out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>",
                i >= chart->alarm_from ? "bar-fail" : "bar", x, y, slot * 0.7, bar_height);
        report_xml_escape(out, chart->ranges[i], false);
        fprintf(out, ": %llu elements</title></rect>", (unsigned long long)count);
        if (!small && slot >= 30.0)
            fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%llu</text>", x + slot * 0.35, y - 5.0,
                    (unsigned long long)count);
        /* Labels where they fit: every bin, every other one, or the ends. */
        if (small ? i == 0 || i + 1 == chart->bins : slot >= 26.0 || i % 2 == 0)
        {
            fprintf(out, "<text%s x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", slot < 30.0 ? " class=\"tick\"" : "",
                    x + slot * 0.35, top + plot_height + (small ? 14.0 : 18.0));
            report_xml_escape(out, chart->labels[i], false);
            fputs("</text>", out);
        }
        fputc('\n', out);
    }
    fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", left, top + plot_height,
            left + plot_width, top + plot_height);
    if (!small)
    {
        fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", left, top, left,
                top + plot_height);
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">", left + plot_width / 2.0,
                chart->height - 10.0);
        report_xml_escape(out, chart->x_label, false);
        fputs("</text>\n", out);
        fprintf(out,
                "<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">elements "
                "(log scale)</text>\n",
                top + plot_height / 2.0, top + plot_height / 2.0);
    }
    if (max == 0)
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no judged elements</text>\n",
                left + plot_width / 2.0, top + plot_height / 2.0);
    fputs("</svg>\n", out);
}

/* ---- the ULP histogram ---------------------------------------------------------- */

/* 2^power as a short number: "512", "1k", "2M". */
static void power_of_two_text(unsigned power, char *buf, size_t size)
{
    static const char units[] = {'\0', 'k', 'M', 'G'};
    unsigned unit = power / 10 < 4 ? power / 10 : 3;

    if (unit == 0)
        snprintf(buf, size, "%llu", (unsigned long long)(UINT64_C(1) << power));
    else
        snprintf(buf, size, "%llu%c", (unsigned long long)(UINT64_C(1) << (power - 10 * unit)), units[unit]);
}

/* Width and height of a chart of the given size. */
static void chart_box(report_chart_size size, double full_height, double *width, double *height)
{
    switch (size)
    {
    case DMLCONF_CHART_FULL:
        *width = 760.0;
        *height = full_height;
        return;
    case DMLCONF_CHART_HALF:
        *width = 580.0;
        *height = full_height;
        return;
    case DMLCONF_CHART_SMALL:
        break;
    }
    *width = 300.0;
    *height = 84.0;
}

void report_svg_ulp_chart(FILE *out, const char *id, const uint64_t counts[DMLCONF_ULP_BINS], report_chart_size size)
{
    char label_text[DMLCONF_ULP_BINS][24];
    char range_text[DMLCONF_ULP_BINS][64];
    const char *labels[DMLCONF_ULP_BINS];
    const char *ranges[DMLCONF_ULP_BINS];
    report_count_chart chart;

    for (unsigned i = 0; i < DMLCONF_ULP_BINS; ++i)
    {
        char low[16], high[16];
        if (i == 0)
        {
            snprintf(label_text[i], sizeof(label_text[i]), "0");
            snprintf(range_text[i], sizeof(range_text[i]), "exact (0 ulp)");
        }
        else if (i + 1 < DMLCONF_ULP_BINS)
        {
            power_of_two_text(i - 1, low, sizeof(low));
            power_of_two_text(i, high, sizeof(high));
            snprintf(label_text[i], sizeof(label_text[i]), "%s", low);
            snprintf(range_text[i], sizeof(range_text[i]), "%s%s to below %s ulp", i == 1 ? "above 0, " : "", low,
                     high);
        }
        else
        {
            power_of_two_text(i - 1, low, sizeof(low));
            snprintf(label_text[i], sizeof(label_text[i]), "%s+", low);
            snprintf(range_text[i], sizeof(range_text[i]), "%s ulp or more, or infinite", low);
        }
        labels[i] = label_text[i];
        ranges[i] = range_text[i];
    }
    memset(&chart, 0, sizeof(chart));
    chart.id = id;
    chart.title = "Error in ulps of every judged element, in powers of two";
    chart.x_label = "error in ulps (bin start; each bin doubles)";
    chart.bins = DMLCONF_ULP_BINS;
    chart.counts = counts;
    chart.labels = labels;
    chart.ranges = ranges;
    chart.alarm_from = DMLCONF_ULP_BINS;
    chart_box(size, 260.0, &chart.width, &chart.height);
    report_svg_count_chart(out, &chart);
}

/* ---- position along the scan axis --------------------------------------------------- */

/* The chart's vertical range of error / tolerance: 10^-3 to at least 10. */
#define POSITION_LOW  1e-3
#define POSITION_HIGH 1e6

void report_svg_position_chart(FILE *out, const char *id, const uint64_t mismatches[DMLCONF_POSITION_BINS],
                               const double max_fraction[DMLCONF_POSITION_BINS], report_chart_size size)
{
    const bool compact = size == DMLCONF_CHART_SMALL;
    double width, height;
    chart_box(size, 260.0, &width, &height);
    const double left = compact ? 8.0 : 70.0;
    const double right = compact ? 8.0 : 20.0;
    const double top = compact ? 14.0 : 24.0;
    const double bottom = compact ? 8.0 : 56.0;
    const double plot_width = width - left - right;
    const double plot_height = height - top - bottom;
    const double slot = plot_width / DMLCONF_POSITION_BINS;
    double high = 10.0;
    double span;

    for (size_t i = 0; i < DMLCONF_POSITION_BINS; ++i)
    {
        double v = max_fraction[i];
        if (isfinite(v) && v * 2.0 > high)
            high = v * 2.0;
        else if (isinf(v) && v > 0.0)
            high = POSITION_HIGH;
    }
    if (high > POSITION_HIGH)
        high = POSITION_HIGH;
    span = log10(high) - log10(POSITION_LOW);

    fputs("<svg", out);
    if (id)
        fprintf(out, " id=\"%s\"", id);
    fprintf(out,
            " class=\"chart position\" role=\"img\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\">\n"
            "<title>Largest |error| / tolerance along the scan axis (position 0 is the first element scanned), "
            "log scale; red bins hold mismatches</title>\n",
            width, height, width, height);
    if (!compact)
    {
        for (double tick = POSITION_LOW; tick <= high * 1.0001; tick *= 10.0)
        {
            double y = top + plot_height - plot_height * (log10(tick) - log10(POSITION_LOW)) / span;
            fprintf(out, "<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", left, y,
                    left + plot_width, y);
            fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", left - 6.0, y + 4.0, tick);
        }
    }
    for (size_t i = 0; i < DMLCONF_POSITION_BINS; ++i)
    {
        const double v = max_fraction[i];
        const bool infinite = isinf(v) && v > 0.0;
        const bool outside = mismatches[i] > 0 || v > 1.0;
        double level = infinite ? high : v > POSITION_LOW ? (v < high ? v : high) : 0.0;
        double bar_height =
            level > 0.0 ? plot_height * (log10(level) - log10(POSITION_LOW)) / span : (v > 0.0 ? 1.0 : 0.0);
        const double x = left + slot * (double)i + slot * 0.1;
        const double y = top + plot_height - bar_height;

        fprintf(out,
                "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"><title>position %.3g to "
                "%.3g: %llu mismatch%s, largest error %.4g &#215; tolerance</title></rect>",
                outside ? "bar-fail" : "bar", x, y, slot * 0.8, bar_height, (double)i / DMLCONF_POSITION_BINS,
                (double)(i + 1) / DMLCONF_POSITION_BINS, (unsigned long long)mismatches[i],
                mismatches[i] == 1 ? "" : "es", v);
        if (mismatches[i] > 0)
            fprintf(out, "<text class=\"count\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%llu</text>",
                    x + slot * 0.4, y - 3.0, (unsigned long long)mismatches[i]);
        fputc('\n', out);
    }
    {
        double y = top + plot_height - plot_height * (0.0 - log10(POSITION_LOW)) / span;
        fprintf(out, "<line class=\"threshold\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>", left, y,
                left + plot_width, y);
        if (!compact)
            fprintf(out,
                    "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"start\" class=\"threshold-label\">tolerance</text>\n",
                    left + 4.0, y - 4.0);
    }
    fprintf(out, "<line class=\"axis\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", left, top + plot_height,
            left + plot_width, top + plot_height);
    if (!compact)
    {
        for (int q = 0; q <= 4; ++q)
            fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>", left + plot_width * q / 4.0,
                    top + plot_height + 18.0, q / 4.0);
        fprintf(out,
                "\n<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">relative position along the scan axis, in "
                "scan order</text>\n",
                left + plot_width / 2.0, height - 10.0);
        fprintf(out,
                "<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">largest "
                "|error| / tolerance</text>\n",
                top + plot_height / 2.0, top + plot_height / 2.0);
    }
    fputs("</svg>\n", out);
}

/*
 * Tests of docgen on pages that nobody here wrote: how a page writes its
 * numbers (decimal points or commas, and why), values read and written its
 * way, lists that a decimal comma makes ambiguous (an error and a note, never
 * a silent misreading), keys in other languages or unknown ones, and pages
 * without a recognisable example block (an error that says why).
 */
#include "test_util.h"

#include <dmlconf/values.h>

#include <stdlib.h>
#include <string.h>

/* An input, one example block and its output, around a page's text. */
#define HEADER_F32(sizes) "InputTensor: (Sizes:{" sizes "}, DataType:FLOAT32)\n"
#define BLOCK(output_header, output)                                                                                   \
    "\nAxis: 0\nAxisDirection: DML_AXIS_DIRECTION_INCREASING\nHasExclusiveSum: FALSE\n\n" output_header output

/* ---- the page's decimal separator --------------------------------------------- */

typedef struct convention_case
{
    const char *text;
    bool decimal_comma;
    char separator;
    docgen_number_evidence evidence;
    const char *evidence_text; /* the text that decided, or NULL */
    const char *language;      /* or NULL */
} convention_case;

static const convention_case conventions[] = {
    /* A decimal point in a value. */
    {HEADER_F32("2") "[0.5, 1]\n", false, ',', DOCGEN_NUMBERS_DECIMAL_POINT, "0.5", NULL},
    /* Semicolons between values. */
    {HEADER_F32("2") "[0,5; 1]\n", true, ';', DOCGEN_NUMBERS_SEMICOLONS, ";", NULL},
    /* "0,5" among values separated by ", ". */
    {HEADER_F32("2") "[0,5, 1]\n", true, ',', DOCGEN_NUMBERS_DECIMAL_COMMA, "0,5", NULL},
    {HEADER_F32("2") "[-1,25, 1]\n", true, ',', DOCGEN_NUMBERS_DECIMAL_COMMA, "-1,25", NULL},
    /* The values win over the metadata. */
    {"ms.contentlocale: de-DE\n" HEADER_F32("2") "[0.5, 1]\n", false, ',', DOCGEN_NUMBERS_DECIMAL_POINT, "0.5", NULL},
    /* The metadata, when no value shows a separator. */
    {"---\nms.contentlocale: de-DE\n---\n" HEADER_F32("2,1") "[[0,5],\n [1]]\n", true, ',', DOCGEN_NUMBERS_METADATA,
     "de-DE", "German"},
    {"lang: \"fr\"\n", true, ',', DOCGEN_NUMBERS_METADATA, "fr", "French"},
    {"locale: es-MX\n", false, ',', DOCGEN_NUMBERS_METADATA, "es-MX", "Spanish"},
    {"Language: en-us\n", false, ',', DOCGEN_NUMBERS_METADATA, "en-us", "English"},
    /* A tag docgen does not know is no metadata. */
    {"lang: xx-YY\n", false, ',', DOCGEN_NUMBERS_DEFAULT, NULL, NULL},
    /* The words of the page: keys, titles of examples, words of comments. */
    {"## Beispiel 1\n", true, ',', DOCGEN_NUMBERS_WORDS, "Beispiel", "German"},
    {"Achse: 0\n", true, ',', DOCGEN_NUMBERS_WORDS, "Achse", "German"},
    {"[1, 2]   // c.-\xc3\xa0-d. 1+2\n", true, ',', DOCGEN_NUMBERS_WORDS, "c.-\xc3\xa0-d.", "French"},
    {"Ejemplo 1\nEjemplo 2\nExample 3\n", true, ',', DOCGEN_NUMBERS_WORDS, "Ejemplo", "Spanish"},
    {"Example 1\nExample 2\nEjemplo 3\n", false, ',', DOCGEN_NUMBERS_WORDS, "Example", "English"},
    /* The desc's own field names show no language. */
    {"Axis: 0\nAxisDirection: DML_AXIS_DIRECTION_INCREASING\n", false, ',', DOCGEN_NUMBERS_DEFAULT, NULL, NULL},
    /* Nothing tells; a link in brackets is no tensor. */
    {HEADER_F32("2") "[1, 2]\n", false, ',', DOCGEN_NUMBERS_DEFAULT, NULL, NULL},
    {"[version 1.5](https://example.com/1.5)\n", false, ',', DOCGEN_NUMBERS_DEFAULT, NULL, NULL},
};

START_TEST(test_number_conventions)
{
    const convention_case *c = &conventions[_i];
    docgen_page page;
    load(&page, c->text);
    const docgen_numbers *n = &page.numbers;
    ck_assert_msg(n->decimal_comma == c->decimal_comma, "case %d: decimal comma %d", _i, n->decimal_comma);
    ck_assert_int_eq(n->separator, c->separator);
    ck_assert_int_eq(n->evidence, c->evidence);
    if (c->evidence_text)
    {
        ck_assert_uint_eq(n->evidence_length, strlen(c->evidence_text));
        ck_assert_int_eq(memcmp(page.text + n->evidence_offset, c->evidence_text, n->evidence_length), 0);
    }
    if (c->language)
        ck_assert_str_eq(n->language, c->language);
    else
        ck_assert_ptr_null(n->language);
    docgen_page_free(&page);
}
END_TEST

/* A page with decimal commas: values read as numbers, new ones written its
 * way, and the whole tensor written anew with its separator. */
START_TEST(test_decimal_comma_values)
{
    const char *page_text = HEADER_F32("3") "[0,5, -1,25, 3]\n" BLOCK("OutputTensor: (Sizes:{3}, DataType:FLOAT32)\n",
                                                                      "[0,5, -0,75, 2,25]\n");
    docgen_page page;
    ck_assert_uint_eq(load(&page, page_text), 0);
    ck_assert(page.numbers.decimal_comma);
    ck_assert_uint_eq(page.inputs[0].token_count, 3);
    float second;
    memcpy(&second, (const unsigned char *)page.inputs[0].values + 4, 4);
    ck_assert(second == -1.25f);
    ck_assert_uint_eq(check_page(&page, NULL), 0);
    docgen_page_free(&page);

    /* A changed input: new numbers with decimal commas. */
    char *changed = replace(page_text, "[0,5", "-1,25", "-1,5");
    char *after = updated(changed);
    ck_assert_ptr_nonnull(strstr(after, "\n[0,5, -1, 2]\n"));
    free(after);
    free(changed);

    /* A new shape, on a page that separates with ';': the tensor written
     * anew in its way, the header's own labels kept. */
    const char *semicolons = "InputTensor: (Gr\xc3\xb6\xc3\x9f"
                             "en:{3}, Datentyp:FLOAT32)\n[0,5; -1,25; 3]\n" BLOCK("OutputTensor: (Gr\xc3\xb6\xc3\x9f"
                                                                                  "en:{2}, Datentyp:FLOAT32)\n",
                                                                                  "[0,5; 1]\n");
    after = updated(semicolons);
    ck_assert_ptr_nonnull(strstr(after, "OutputTensor: (Gr\xc3\xb6\xc3\x9f"
                                        "en:{3}, Datentyp:FLOAT32)\n"
                                        "[0,5; -0,75; 2,25]\n"));
    free(after);
}
END_TEST

/* Ambiguous lists and misread commas: an error where it happens, then a note
 * that says how the page reads commas, and why. */
typedef struct comma_case
{
    const char *text;
    uint32_t line, column; /* of the error */
    const char *message;   /* part of the error */
    uint32_t note_column;  /* of the note, on the same line */
    const char *note;      /* part of the note */
} comma_case;

#define DE_DE "ms.contentlocale: de-DE\n"

static const comma_case comma_cases[] = {
    /* A comma page: "1,2,3" is no number, "1,2" one number. */
    {DE_DE "InputTensor: (Sizes:{3}, DataType:INT32)\n[1,2,3]\n", 3, 2, "'1,2,3' is not a number", 3,
     "this page writes decimal commas (its metadata says it is in German: 'de-DE' at line 1): a comma between two "
     "digits belongs to the number, so values must be separated by ', ' (a comma and a blank) or ';'"},
    {DE_DE "InputTensor: (Sizes:{2}, DataType:FLOAT32)\n[1,2]\n", 3, 1,
     "the values have the shape {1}, but the header at line 2 says {2}", 3, "this page writes decimal commas"},
    /* A point page: "0,5" is two values. */
    {HEADER_F32("1") "[0,5]\n", 2, 1, "the values have the shape {2}, but the header at line 1 says {1}", 3,
     "this page writes decimal points (no value has a decimal separator, and nothing shows a language that writes "
     "decimal commas): every comma separates values, even between two digits; docgen reads decimal commas on a "
     "page that"},
    {HEADER_F32("2,2") "[[0,5, 1],\n [2, 3]]\n" HEADER_F32("1") "[2.5]\n", 3, 2,
     "this list has 2 items, but the first list at its depth (line 2) has 3", 0, NULL},
    /* An output whose shape a comma may have changed is an error, not a
     * rewrite. */
    {HEADER_F32("1") "[2.5]\n" BLOCK("OutputTensor: (Sizes:{1}, DataType:FLOAT32)\n", "[2,5]\n"), 9, 1,
     "the values have the shape {2}, but the InputTensor at line 1 says {1}", 3,
     "this page writes decimal points (line 2 writes '2.5' with a decimal point): every comma separates values, "
     "even between two digits; a page writes all its numbers one way"},
};

START_TEST(test_comma_errors)
{
    const comma_case *c = &comma_cases[_i];
    docgen_page page;
    size_t errors = load(&page, c->text);
    char *all = messages(&page);
    ck_assert_msg(errors >= 1, "case %d: no error", _i);
    const dmlconf_diagnostic *error = &page.diagnostics.items[0];
    ck_assert_msg(strstr(error->message, c->message) != NULL, "case %d: %s", _i, all);
    ck_assert_msg(error->line == c->line && error->column == c->column, "case %d: %s", _i, all);
    if (c->note)
    {
        ck_assert_msg(page.diagnostics.count >= 2, "case %d: no note: %s", _i, all);
        const dmlconf_diagnostic *note = &page.diagnostics.items[1];
        ck_assert_int_eq(note->severity, DMLCONF_SEVERITY_NOTE);
        ck_assert_msg(strstr(note->message, c->note) != NULL, "case %d: %s", _i, all);
        ck_assert_msg(note->line == c->line && note->column == c->note_column, "case %d: %s", _i, all);
    }
    ck_assert_uint_eq(page.example_count, 0);
    free(all);
    docgen_page_free(&page);
}
END_TEST

/* ---- keys in other languages ---------------------------------------------------- */

typedef struct key_case
{
    const char *text;
    dmlconf_operator op;
    uint32_t axis;
    dmlconf_axis_direction direction;
    bool exclusive;
} key_case;

static const key_case key_cases[] = {
    {"Eingabe: (Sizes:{2,2}, DataType:INT32)\n[[1, 2],\n [3, 4]]\n\nAchse: 1\nAchsenrichtung: "
     "DML_AXIS_DIRECTION_DECREASING\nHatExklusivesProdukt: WAHR\n\nAusgabe: (Sizes:{2,2}, DataType:INT32)\n[[2, 1],\n "
     "[4, 1]]\n",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, 1, DMLCONF_AXIS_DIRECTION_DECREASING, true},
    {"Entr\xc3\xa9"
     "e: (Sizes:{2}, DataType:INT32)\n[1, 2]\n\nAxe : 0\nDirection de l'axe: "
     "DML_AXIS_DIRECTION_INCREASING\nA une somme exclusive: FAUX\n\nSortie: (Sizes:{2}, DataType:INT32)\n[1, 3]\n",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, 0, DMLCONF_AXIS_DIRECTION_INCREASING, false},
    {"Entrada: (Sizes:{2}, DataType:INT32)\n[1, 2]\n\nEje: 0\nDirecci\xc3\xb3n del eje: "
     "DML_AXIS_DIRECTION_INCREASING\nTiene producto exclusivo: VERDADERO\n\nSalida: (Sizes:{2}, DataType:INT32)\n[1, "
     "1]\n",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, 0, DMLCONF_AXIS_DIRECTION_INCREASING, true},
    {"Tensore di input: (Sizes:{2}, DataType:INT32)\n[1, 2]\n\nAsse: 0\nDirezione dell'asse: "
     "DML_AXIS_DIRECTION_INCREASING\nSomma esclusiva: FALSO\n\nTensore di output: (Sizes:{2}, DataType:INT32)\n[1, "
     "3]\n",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, 0, DMLCONF_AXIS_DIRECTION_INCREASING, false},
    {"Tensor de entrada: (Sizes:{2}, DataType:INT32)\n[1, 2]\n\nEixo: 0\nDire\xc3\xa7\xc3\xa3o do eixo: "
     "DML_AXIS_DIRECTION_INCREASING\nTem soma exclusiva: VERDADEIRO\n\nSa\xc3\xad"
     "da: (Sizes:{2}, "
     "DataType:INT32)\n[0, 1]\n",
     DMLCONF_OPERATOR_CUMULATIVE_SUMMATION, 0, DMLCONF_AXIS_DIRECTION_INCREASING, true},
    /* Keys docgen does not know, next to a direction: the values say what
     * they set, the stems of the flag's key the operator. */
    {"Daten: (Sizes:{2}, DataType:INT32)\n[1, 2]\n\nDim: 0\nSens du parcours: DML_AXIS_DIRECTION_INCREASING\n"
     "Produktflag: TRUE\n\nErgebnis: (Sizes:{2}, DataType:INT32)\n[1, 1]\n",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, 0, DMLCONF_AXIS_DIRECTION_INCREASING, true},
    /* ...or the operator the page names. */
    {"# DML_CUMULATIVE_PRODUCT_OPERATOR_DESC\n\nDaten: (Sizes:{2}, DataType:INT32)\n[1, 2]\n\nDim: 0\nLauf: "
     "DML_AXIS_DIRECTION_INCREASING\nOhne: FALSE\n\nErgebnis: (Sizes:{2}, DataType:INT32)\n[1, 2]\n",
     DMLCONF_OPERATOR_CUMULATIVE_PRODUCT, 0, DMLCONF_AXIS_DIRECTION_INCREASING, false},
};

START_TEST(test_localised_keys)
{
    const key_case *c = &key_cases[_i];
    docgen_page page;
    char *all = NULL;
    ck_assert_msg(load(&page, c->text) == 0, "case %d: %s", _i, all = messages(&page));
    free(all);
    ck_assert_uint_eq(page.input_count, 1);
    ck_assert_uint_eq(page.example_count, 1);
    const docgen_example *e = &page.examples[0];
    ck_assert_int_eq(e->op, c->op);
    ck_assert_uint_eq(e->axis, c->axis);
    ck_assert_int_eq(e->direction, c->direction);
    ck_assert_int_eq(e->exclusive, c->exclusive);
    ck_assert_uint_eq(check_page(&page, NULL), 0);
    docgen_page_free(&page);
}
END_TEST

/* A flag whose operator neither its key nor the page says is an error. */
START_TEST(test_unknown_operator)
{
    static const char *const pages[] = {
        "DML_CUMULATIVE_SUMMATION and DML_CUMULATIVE_PRODUCT\n\n",
        "No operator named here.\n\n",
    };
    static const char *const why[] = {"the page names both operators", "the page names neither"};
    for (size_t i = 0; i < 2; ++i)
    {
        dmlconf_buffer text = {0};
        dmlconf_buffer_puts(&text, pages[i]);
        dmlconf_buffer_puts(&text, "Daten: (Sizes:{2}, DataType:INT32)\n[1, 2]\n\nDim: 0\nLauf: "
                                   "DML_AXIS_DIRECTION_INCREASING\nOhne: FALSE\n\nErgebnis: (Sizes:{2}, "
                                   "DataType:INT32)\n[1, 2]\n");
        docgen_page page;
        ck_assert_uint_eq(load(&page, text.data), 1);
        const dmlconf_diagnostic *d = &page.diagnostics.items[0];
        ck_assert_uint_eq(d->line, 8);
        ck_assert_uint_eq(d->column, 1);
        ck_assert_ptr_nonnull(strstr(d->message, "cannot tell whether 'Ohne' makes a cumulative summation or a "
                                                 "cumulative product"));
        ck_assert_ptr_nonnull(strstr(d->message, why[i]));
        docgen_page_free(&page);
        dmlconf_buffer_free(&text);
    }
}
END_TEST

/* A word for a tensor starts prose too: it names one when sizes in braces
 * follow, and then a broken header is an error. */
START_TEST(test_tensor_words_in_prose)
{
    docgen_page page;
    ck_assert_uint_eq(load(&page, "Salida: (opcional) el tensor de salida.\n\n" HEADER_F32("2") "[1, 2]\n" BLOCK(
                                      "OutputTensor: (Sizes:{2}, DataType:FLOAT32)\n", "[1, 3]\n")),
                      0);
    ck_assert_uint_eq(page.example_count, 1);
    docgen_page_free(&page);
    ck_assert_uint_eq(load(&page, "Eingabe: (Gr\xc3\xb6\xc3\x9f"
                                  "en:{2} Datentyp:INT32)\n[1, 2]\n"),
                      1);
    ck_assert_str_eq(page.diagnostics.items[0].message, "expected ', DataType:' after the sizes");
    docgen_page_free(&page);
}
END_TEST

/* A key docgen knows, with a bad value: the page's own key in the message. */
START_TEST(test_localised_key_errors)
{
    docgen_page page;
    load(&page, "Eingabe: (Sizes:{2}, DataType:INT32)\n[1, 2]\n\nAchse: eins\nAchsenrichtung: "
                "DML_AXIS_DIRECTION_INCREASING\nHatExklusiveSumme: VIELLEICHT\n\nAusgabe: (Sizes:{2}, "
                "DataType:INT32)\n[1, 3]\n");
    ck_assert_uint_eq(page.diagnostics.error_count, 2);
    ck_assert_str_eq(page.diagnostics.items[0].message, "Achse must be a dimension index (0, 1, ...), not 'eins'");
    ck_assert_str_eq(page.diagnostics.items[1].message, "HatExklusiveSumme must be TRUE or FALSE, not 'VIELLEICHT'");
    ck_assert_uint_eq(page.example_count, 0);
    docgen_page_free(&page);
}
END_TEST

/* ---- pages without an example block -------------------------------------------- */

typedef struct absence_case
{
    const char *text;
    uint32_t line, column; /* of the error; 0: none */
    const char *note;      /* part of a note */
    uint32_t note_line, note_column;
} absence_case;

static const absence_case absences[] = {
    {"", 0, 0, "this page has no tensor header, no values in brackets and no parameter line", 0, 0},
    {"# Title\n\nProse, and Axis: in a sentence.\n", 0, 0, "this page has no tensor header", 0, 0},
    {"InputTensor: (Sizes:{2}, DataType:INT32)\n[1, 2]\n", 1, 14,
     "an input tensor, but no parameter lines and output tensor after it", 1, 14},
    {"Daten: (Gr\xc3\xb6\xc3\x9f"
     "e 2)\n",
     1, 1, "this line looks like a tensor header, but expected 'Sizes:{' in the tensor's header", 1, 15},
    {"Daten: (Sizes:{2}, DataType:INT32)\nprose\n", 1, 1,
     "this line looks like a tensor header, but no values in brackets on the line after it", 2, 1},
    {"Zahl: 3\nWahr: FALSE\n", 1, 1,
     "this could be a parameter line, but docgen does not know its key, and no line next to it has a key it knows", 1,
     1},
    {"Some values:\n\n  [[1, 2],\n   [3, 4]]\n", 3, 3,
     "values in brackets, but no tensor header ('NAME: (Sizes:{...}, DataType:...)') on the line above them", 3, 3},
};

START_TEST(test_no_example_block)
{
    const absence_case *c = &absences[_i];
    docgen_page page;
    ck_assert_uint_eq(load(&page, c->text), 1);
    char *all = messages(&page);
    const dmlconf_diagnostic *error = &page.diagnostics.items[0];
    ck_assert_int_eq(error->severity, DMLCONF_SEVERITY_ERROR);
    ck_assert_msg(strstr(error->message, "no example block found: docgen looks for an input tensor") != NULL, "%s",
                  all);
    ck_assert_msg(error->line == c->line && error->column == c->column, "case %d: %s", _i, all);
    bool noted = false;
    for (size_t i = 1; i < page.diagnostics.count; ++i)
    {
        const dmlconf_diagnostic *note = &page.diagnostics.items[i];
        noted |= note->severity == DMLCONF_SEVERITY_NOTE && strstr(note->message, c->note) &&
                 note->line == c->note_line && note->column == c->note_column;
    }
    ck_assert_msg(noted, "case %d: no note '%s' at %u:%u in %s", _i, c->note, c->note_line, c->note_column, all);
    free(all);
    docgen_page_free(&page);
}
END_TEST

/* A page with an error already says what is wrong: no second error. */
START_TEST(test_errors_are_enough)
{
    docgen_page page;
    ck_assert_uint_eq(load(&page, "InputTensor: (Sizes:{2}, DataType:INT32)\n[1, x]\n"), 1);
    ck_assert_ptr_null(strstr(page.diagnostics.items[0].message, "no example block"));
    docgen_page_free(&page);
}
END_TEST

Suite *languages_suite(void)
{
    Suite *suite = suite_create("docgen languages");
    TCase *tc = tcase_create("numbers");
    tcase_add_loop_test(tc, test_number_conventions, 0, (int)(sizeof(conventions) / sizeof(conventions[0])));
    tcase_add_test(tc, test_decimal_comma_values);
    tcase_add_loop_test(tc, test_comma_errors, 0, (int)(sizeof(comma_cases) / sizeof(comma_cases[0])));
    suite_add_tcase(suite, tc);

    tc = tcase_create("keys");
    tcase_add_loop_test(tc, test_localised_keys, 0, (int)(sizeof(key_cases) / sizeof(key_cases[0])));
    tcase_add_test(tc, test_unknown_operator);
    tcase_add_test(tc, test_localised_key_errors);
    tcase_add_test(tc, test_tensor_words_in_prose);
    suite_add_tcase(suite, tc);

    tc = tcase_create("absence");
    tcase_add_loop_test(tc, test_no_example_block, 0, (int)(sizeof(absences) / sizeof(absences[0])));
    tcase_add_test(tc, test_errors_are_enough);
    suite_add_tcase(suite, tc);
    return suite;
}

/*
 * mb_load_rows.h — the rows of an sbtest table as every load path writes
 * them (mb_load_rows.c).
 *
 * Both paths, Postgres's bulk insert (mb_load.c) and the direct pages
 * (mb_load_pages.c), take their rows from here, so one seed gives the same
 * rows whichever path a load takes.
 */
#ifndef MB_LOAD_ROWS_H
#define MB_LOAD_ROWS_H

#include "access/htup.h"
#include "utils/relcache.h"

#include "mb_rand.h"

/*
 * Every row is a copy of one template tuple with its four values written in
 * place (mb_load_make_template makes it with heap_form_tuple).
 */
typedef struct mb_row_template
{
	HeapTuple	tuple;			/* header and data of any row */
	Size		size;			/* HEAPTUPLESIZE + t_len */
	int			id_offset;		/* offsets of the values from t_data */
	int			k_offset;
	int			c_offset;
	int			pad_offset;
} mb_row_template;

/* Fails unless rel is (id int4, k int4, c char(120), pad char(60)). */
extern void mb_load_check_shape(Relation rel);

/* Makes the template of rel's rows; rel must have passed the check above. */
extern void mb_load_make_template(Relation rel, mb_row_template *tpl);

/*
 * Writes row id's values into data, a copy of the template's tuple data,
 * drawing c, pad and k from rng; returns k.
 */
extern int32 mb_load_fill_row(const mb_row_template *tpl, char *data, int32 id,
							  mb_rng *rng, uint32 table_size);

#endif							/* MB_LOAD_ROWS_H */

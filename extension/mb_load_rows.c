/*
 * mb_load_rows.c — the rows of an sbtest table as every load path writes
 * them.
 *
 * Every row has the same shape and size, so each is a copy of one template
 * tuple with its four values written in place: no per-row datums, no
 * second copy of the data into a tuple.  The template comes from
 * heap_form_tuple itself, so its header and layout (alignment, short varlena
 * headers, blank padding) are exactly what Postgres would build; the places
 * of c's and pad's characters in it are found by searching for marker
 * values.
 */
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/pg_type.h"
#include "utils/rel.h"

#include "mb_load_rows.h"
#include "mb_values.h"

/* char(120) and char(60) are stored blank-padded to their length. */
#define MB_C_WIDTH	120
#define MB_PAD_WIDTH 60

void
mb_load_check_shape(Relation rel)
{
	TupleDesc	desc = RelationGetDescr(rel);
	static const char *const names[] = {"id", "k", "c", "pad"};
	static const Oid types[] = {INT4OID, INT4OID, BPCHAROID, BPCHAROID};
	static const int32 typmods[] = {-1, -1, MB_C_WIDTH + VARHDRSZ, MB_PAD_WIDTH + VARHDRSZ};
	int			i;

	if (desc->natts != 4)
		ereport(ERROR,
				(errcode(ERRCODE_WRONG_OBJECT_TYPE),
				 errmsg("table \"%s\" does not have the sbtest columns",
						RelationGetRelationName(rel))));
	for (i = 0; i < 4; i++)
	{
		Form_pg_attribute att = TupleDescAttr(desc, i);

		if (att->attisdropped || strcmp(NameStr(att->attname), names[i]) != 0 ||
			att->atttypid != types[i] || att->atttypmod != typmods[i])
			ereport(ERROR,
					(errcode(ERRCODE_WRONG_OBJECT_TYPE),
					 errmsg("column %d of table \"%s\" is not %s of the sbtest layout",
							i + 1, RelationGetRelationName(rel), names[i])));
	}
}

/* the offset of the first len-byte run of ch in tuple data, or -1 */
static int
find_run(HeapTuple tuple, char ch, int len)
{
	const char *data = (const char *) tuple->t_data;
	int			i;
	int			run = 0;

	for (i = tuple->t_data->t_hoff; i < (int) tuple->t_len; i++)
	{
		run = data[i] == ch ? run + 1 : 0;
		if (run == len)
			return i - len + 1;
	}
	return -1;
}

void
mb_load_make_template(Relation rel, mb_row_template *tpl)
{
	TupleDesc	desc = RelationGetDescr(rel);
	char	   *c = palloc(VARHDRSZ + MB_C_WIDTH);
	char	   *pad = palloc(VARHDRSZ + MB_PAD_WIDTH);
	Datum		values[4];
	bool		isnull[4] = {false, false, false, false};

	/* distinct markers: the ids and digits cannot contain them */
	memset(VARDATA(c), 'C', MB_C_LEN);
	memset(VARDATA(c) + MB_C_LEN, ' ', MB_C_WIDTH - MB_C_LEN);
	SET_VARSIZE(c, VARHDRSZ + MB_C_WIDTH);
	memset(VARDATA(pad), 'P', MB_PAD_LEN);
	memset(VARDATA(pad) + MB_PAD_LEN, ' ', MB_PAD_WIDTH - MB_PAD_LEN);
	SET_VARSIZE(pad, VARHDRSZ + MB_PAD_WIDTH);
	/* the ints as marker bytes too: 0x49494949 ('IIII'), 0x4b4b4b4b ('KKKK') */
	values[0] = Int32GetDatum(0x49494949);
	values[1] = Int32GetDatum(0x4b4b4b4b);
	values[2] = PointerGetDatum(c);
	values[3] = PointerGetDatum(pad);

	tpl->tuple = heap_form_tuple(desc, values, isnull);
	tpl->size = HEAPTUPLESIZE + tpl->tuple->t_len;
	tpl->id_offset = find_run(tpl->tuple, 'I', 4);
	tpl->k_offset = find_run(tpl->tuple, 'K', 4);
	tpl->c_offset = find_run(tpl->tuple, 'C', MB_C_LEN);
	tpl->pad_offset = find_run(tpl->tuple, 'P', MB_PAD_LEN);
	if (tpl->id_offset < 0 || tpl->k_offset < 0 || tpl->c_offset < 0 || tpl->pad_offset < 0)
		elog(ERROR, "could not find the columns in a row of \"%s\"",
			 RelationGetRelationName(rel));
	pfree(c);
	pfree(pad);
}

int32
mb_load_fill_row(const mb_row_template *tpl, char *data, int32 id, mb_rng *rng, uint32 table_size)
{
	int32		k;

	/* draws in the catalog's order: c, pad, then k */
	mb_values_c(rng, data + tpl->c_offset);
	mb_values_pad(rng, data + tpl->pad_offset);
	k = (int32) mb_rng_uniform(rng, 1, table_size);
	memcpy(data + tpl->id_offset, &id, sizeof(id));
	memcpy(data + tpl->k_offset, &k, sizeof(k));
	return k;
}

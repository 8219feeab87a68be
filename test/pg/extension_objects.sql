-- extension_objects.sql — every object of the microbench extension, one line
-- each, in a form that differs exactly when the objects differ: functions by
-- signature, result, attributes, settings, body and grants; tables by
-- columns (name, type, nullability, default), constraints, indexes, triggers
-- and grants; views by definition; comments on all of them.  Used by
-- test/pg/upgrade.t to show that ALTER EXTENSION UPDATE from an older
-- version builds what a fresh CREATE EXTENSION builds.  Column order is not
-- compared: ALTER TABLE ADD COLUMN can only append (nor, so, the column
-- list a view prints after microbench.scoped_runs()).
WITH members AS (
    SELECT d.classid, d.objid
    FROM pg_depend d
    JOIN pg_extension e ON e.oid = d.refobjid
    WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
      AND e.extname = 'microbench'
), funcs AS (
    SELECT 'function ' || p.oid::regprocedure::text
           || ' returns ' || pg_get_function_result(p.oid)
           || ' kind=' || p.prokind::text || ' volatile=' || p.provolatile::text
           || ' strict=' || p.proisstrict || ' secdef=' || p.prosecdef
           || ' lang=' || l.lanname
           || ' config=' || coalesce(array_to_string(p.proconfig, ','), '')
           || ' args=' || coalesce(pg_get_function_arguments(p.oid), '')
           || ' body=' || md5(coalesce(p.prosrc, '') || coalesce(p.probin, ''))
           || ' acl=' || coalesce(array_to_string(array(SELECT x::text FROM unnest(p.proacl) x ORDER BY 1), ','), '')
           || ' comment=' || coalesce(obj_description(p.oid, 'pg_proc'), '') AS line
    FROM members m
    JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
    JOIN pg_language l ON l.oid = p.prolang
), rels AS (
    SELECT c.oid, c.relkind, c.oid::regclass::text AS name
    FROM members m
    JOIN pg_class c ON m.classid = 'pg_class'::regclass AND c.oid = m.objid
), rel_lines AS (
    SELECT r.relkind::text || ' ' || r.name
           || ' acl=' || coalesce(array_to_string(array(SELECT x::text FROM unnest(c.relacl) x ORDER BY 1), ','), '')
           || ' comment=' || coalesce(obj_description(r.oid, 'pg_class'), '')
           -- a view over a function returning the runs lists the runs' columns
           -- after its alias, in the table's order: not compared, as above
           || CASE WHEN r.relkind = 'v'
                   THEN ' view=' || regexp_replace(pg_get_viewdef(r.oid), '(scoped_runs\(\) \w+)\([^)]*\)', '\1', 'g')
                   ELSE '' END AS line
    FROM rels r JOIN pg_class c ON c.oid = r.oid
    UNION ALL
    SELECT 'column ' || r.name || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod)
           || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END
           || coalesce(' default ' || pg_get_expr(ad.adbin, ad.adrelid), '')
           || coalesce(' comment=' || col_description(r.oid, a.attnum), '')
    FROM rels r
    JOIN pg_attribute a ON a.attrelid = r.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_attrdef ad ON ad.adrelid = r.oid AND ad.adnum = a.attnum
    UNION ALL
    SELECT 'constraint ' || r.name || ' ' || pg_get_constraintdef(co.oid)
    FROM rels r JOIN pg_constraint co ON co.conrelid = r.oid
    UNION ALL
    SELECT 'index ' || r.name || ' ' || regexp_replace(pg_get_indexdef(i.indexrelid), '^.* USING ', 'USING ')
    FROM rels r JOIN pg_index i ON i.indrelid = r.oid
    UNION ALL
    SELECT 'trigger ' || r.name || ' ' || pg_get_triggerdef(t.oid)
    FROM rels r JOIN pg_trigger t ON t.tgrelid = r.oid AND NOT t.tgisinternal
), other AS (
    SELECT 'object ' || pg_describe_object(m.classid, m.objid, 0) AS line
    FROM members m
    WHERE m.classid NOT IN ('pg_proc'::regclass, 'pg_class'::regclass)
)
SELECT line FROM funcs
UNION ALL SELECT line FROM rel_lines
UNION ALL SELECT line FROM other
ORDER BY 1;

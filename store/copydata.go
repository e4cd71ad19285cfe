package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// CopiedTable is one table of a CopyData run: how many rows the source had in the snapshot that
// was copied, and how many the target has afterwards.
type CopiedTable struct {
	Name   string
	Source int64
	Target int64
}

// copySkippedTables are not data: goose's record of applied migrations, which each database
// keeps for its own engine, and the gate's change log with its version marks, whose versions
// mean something only in the database that gave them (SQLite counts ids, PostgreSQL
// transactions). The target's own triggers log every copied paid ticket as a change, so a gate
// phone that kept a version of the old database gets the whole list from the new one.
var copySkippedTables = []string{"goose_db_version", "gate_changes", "gate_change_marks"}

// CopyData copies every table of src into dst: SQLite to PostgreSQL, PostgreSQL to SQLite (or
// the same engine). Both must be migrated to the same schema and dst must be empty. The source is
// read in one read transaction (one consistent snapshot: a server may keep serving from it), the
// target written in one transaction (all or nothing), parents before children; ids are copied
// as they are, and on PostgreSQL the identity sequences are then moved past the copied ids. It
// returns each table's row counts in the source snapshot and in the target after the commit, by
// table name, and an error when any differ.
func CopyData(ctx context.Context, src, dst *DB) ([]CopiedTable, error) {
	srcTables, err := src.tableNames(ctx)
	if err != nil {
		return nil, fmt.Errorf("source tables: %w", err)
	}
	dstTables, err := dst.tableNames(ctx)
	if err != nil {
		return nil, fmt.Errorf("target tables: %w", err)
	}
	if missing := without(srcTables, dstTables); len(missing) > 0 {
		return nil, fmt.Errorf("the target has no table %s: migrate both databases with the same Palaro version", strings.Join(missing, ", "))
	}
	if extra := without(dstTables, srcTables); len(extra) > 0 {
		return nil, fmt.Errorf("the source has no table %s: migrate both databases with the same Palaro version", strings.Join(extra, ", "))
	}
	order, deferred, err := dst.parentsFirst(ctx, dstTables)
	if err != nil {
		return nil, err
	}
	for _, t := range order {
		var n int64
		if err := dst.read.QueryRowContext(ctx, `SELECT count(*) FROM `+t).Scan(&n); err != nil {
			return nil, err
		}
		if n > 0 {
			return nil, fmt.Errorf("the target is not empty: table %s has %d rows (copy into a new, migrated database)", t, n)
		}
	}

	opts := &sql.TxOptions{ReadOnly: true}
	if src.isPostgres() {
		opts.Isolation = sql.LevelRepeatableRead // one snapshot for every statement
	}
	rtx, err := src.read.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer rtx.Rollback()
	// A transaction of its own on the writer connection, not a unit of the batching writer: an
	// offline tool's one all-or-nothing copy of every table, with nothing to batch it with.
	wtx, err := dst.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer wtx.Rollback()
	report := make([]CopiedTable, 0, len(order))
	var updates []deferredUpdate
	for _, t := range order {
		cols, err := dst.columnNames(ctx, t)
		if err != nil {
			return nil, err
		}
		srcCols, err := src.columnNames(ctx, t)
		if err != nil {
			return nil, err
		}
		if a, b := slices.Sorted(slices.Values(cols)), slices.Sorted(slices.Values(srcCols)); !slices.Equal(a, b) {
			return nil, fmt.Errorf("table %s: the source has columns %s, the target %s: migrate both with the same Palaro version",
				t, strings.Join(b, ", "), strings.Join(a, ", "))
		}
		n, later, err := copyTable(ctx, rtx, wtx, t, cols, deferred[t])
		if err != nil {
			return nil, fmt.Errorf("copy %s: %w", t, err)
		}
		report = append(report, CopiedTable{Name: t, Source: n})
		updates = append(updates, later...)
	}
	for _, u := range updates { // every row is in: the deferred keys can point at them
		if _, err := wtx.ExecContext(ctx, u.query, u.args...); err != nil {
			return nil, fmt.Errorf("deferred key: %w", err)
		}
	}
	if dst.isPostgres() {
		if err := resetSequences(ctx, wtx); err != nil {
			return nil, fmt.Errorf("identity sequences: %w", err)
		}
	}
	if err := wtx.Commit(); err != nil {
		return nil, err
	}
	_ = rtx.Rollback()
	slices.SortFunc(report, func(a, b CopiedTable) int { return strings.Compare(a.Name, b.Name) })
	var mismatched []string
	for i := range report {
		if err := dst.read.QueryRowContext(ctx, `SELECT count(*) FROM `+report[i].Name).Scan(&report[i].Target); err != nil {
			return report, err
		}
		if report[i].Target != report[i].Source {
			mismatched = append(mismatched, fmt.Sprintf("%s (%d copied, %d in the target)", report[i].Name, report[i].Source, report[i].Target))
		}
	}
	if len(mismatched) > 0 {
		return report, fmt.Errorf("row counts differ: %s", strings.Join(mismatched, ", "))
	}
	return report, nil
}

// copyBatchValues bounds the values of one multi-row INSERT (SQLite allows 32,766 parameters,
// PostgreSQL 65,535).
const copyBatchValues = 10_000

// deferredUpdate sets a deferred foreign key of one copied row.
type deferredUpdate struct {
	query string
	args  []any
}

// copyTable copies the rows of table (in primary-key order, so a row that refers to an earlier
// row of its own table comes after it) from rtx to wtx, and returns how many it copied. The
// columns named in deferred are copied as NULL; the updates that set them are returned.
func copyTable(ctx context.Context, rtx, wtx *sql.Tx, table string, cols, deferred []string) (int64, []deferredUpdate, error) {
	list := strings.Join(cols, ", ")
	rows, err := rtx.QueryContext(ctx, `SELECT `+list+` FROM `+table+` ORDER BY 1`)
	if err != nil {
		return 0, nil, err
	}
	defer rows.Close()
	perBatch := max(1, copyBatchValues/len(cols))
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(cols)), ", ") + ")"
	var batch []any
	var updates []deferredUpdate
	var n, inBatch int64
	flush := func() error {
		if inBatch == 0 {
			return nil
		}
		values := strings.TrimSuffix(strings.Repeat(row+", ", int(inBatch)), ", ")
		if _, err := wtx.ExecContext(ctx, `INSERT INTO `+table+` (`+list+`) VALUES `+values, batch...); err != nil {
			return err
		}
		batch, inBatch = batch[:0], 0
		return nil
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return n, nil, err
		}
		for i, c := range cols {
			if slices.Contains(deferred, c) && vals[i] != nil {
				updates = append(updates, deferredUpdate{`UPDATE ` + table + ` SET ` + c + ` = ? WHERE ` + cols[0] + ` = ?`, []any{vals[i], vals[0]}})
				vals[i] = nil
			}
		}
		batch = append(batch, vals...)
		inBatch++
		n++
		if inBatch == int64(perBatch) {
			if err := flush(); err != nil {
				return n, nil, err
			}
		}
	}
	if err := rows.Err(); err != nil {
		return n, nil, err
	}
	return n, updates, flush()
}

// resetSequences moves every identity (or serial) sequence of the PostgreSQL schema past the
// largest id copied, so the next insert gets a new id.
func resetSequences(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND (is_identity = 'YES' OR column_default LIKE 'nextval(%')`)
	if err != nil {
		return err
	}
	var idents [][2]string
	for rows.Next() {
		var t, c string
		if err := rows.Scan(&t, &c); err != nil {
			rows.Close()
			return err
		}
		idents = append(idents, [2]string{t, c})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, tc := range idents {
		if _, err := tx.ExecContext(ctx, `SELECT setval(pg_get_serial_sequence(?, ?), (SELECT COALESCE(max(`+tc[1]+`), 0) + 1 FROM `+tc[0]+`), false)`,
			tc[0], tc[1]); err != nil {
			return fmt.Errorf("%s.%s: %w", tc[0], tc[1], err)
		}
	}
	return nil
}

// isPostgres reports whether db is a PostgreSQL database.
func (db *DB) isPostgres() bool { return db.postgres }

// tableNames returns the database's tables, without SQLite's internal ones and copySkippedTables.
func (db *DB) tableNames(ctx context.Context) ([]string, error) {
	q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`
	if db.isPostgres() {
		q = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
	}
	names, err := queryStrings(ctx, db.read, q)
	if err != nil {
		return nil, err
	}
	names = slices.DeleteFunc(names, func(n string) bool { return slices.Contains(copySkippedTables, n) })
	sort.Strings(names)
	return names, nil
}

// columnNames returns the columns of table in their order.
func (db *DB) columnNames(ctx context.Context, table string) ([]string, error) {
	if db.isPostgres() {
		return queryStrings(ctx, db.read, `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema()
			AND table_name = ? ORDER BY ordinal_position`, table)
	}
	return queryStrings(ctx, db.read, `SELECT name FROM pragma_table_info(?) ORDER BY cid`, table)
}

// foreignKey is one single-column foreign key of a table.
type foreignKey struct {
	column, parent string
	nullable       bool
}

// foreignKeys returns the foreign keys of table.
func (db *DB) foreignKeys(ctx context.Context, table string) ([]foreignKey, error) {
	q := `SELECT fk."from", fk."table", ti."notnull" FROM pragma_foreign_key_list(?) fk
		JOIN pragma_table_info(?) ti ON ti.name = fk."from"`
	args := []any{table, table}
	if db.isPostgres() {
		q = `SELECT a.attname, ref.relname, CASE WHEN a.attnotnull THEN 1 ELSE 0 END FROM pg_constraint c
			JOIN pg_class tbl ON tbl.oid = c.conrelid JOIN pg_namespace ns ON ns.oid = tbl.relnamespace
			JOIN pg_class ref ON ref.oid = c.confrelid
			JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
			WHERE c.contype = 'f' AND ns.nspname = current_schema() AND tbl.relname = ?`
		args = args[:1]
	}
	rows, err := db.read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var fks []foreignKey
	for rows.Next() {
		var fk foreignKey
		var notNull int
		if err := rows.Scan(&fk.column, &fk.parent, &notNull); err != nil {
			return nil, err
		}
		fk.nullable = notNull == 0
		fks = append(fks, fk)
	}
	return fks, rows.Err()
}

// parentsFirst orders tables so that every table comes after the tables its foreign keys refer
// to. Where the keys form a cycle (orders and tickets refer to each other), a nullable key of the
// cycle is deferred: it is returned under its table's name, copied as NULL and set once every
// row is in.
func (db *DB) parentsFirst(ctx context.Context, tables []string) (order []string, deferred map[string][]string, err error) {
	keys := map[string][]foreignKey{}
	for _, t := range tables {
		if keys[t], err = db.foreignKeys(ctx, t); err != nil {
			return nil, nil, fmt.Errorf("foreign keys of %s: %w", t, err)
		}
	}
	deferred = map[string][]string{}
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(t string, path []string) error
	visit = func(t string, path []string) error {
		state[t] = 1
		for _, fk := range keys[t] {
			switch {
			case fk.parent == t || state[fk.parent] == 2: // a row of its own table: rows go in id order
			case state[fk.parent] == 1:
				if !fk.nullable {
					return fmt.Errorf("foreign keys form a cycle without a nullable key: %s", strings.Join(append(path, t, fk.parent), " → "))
				}
				deferred[t] = append(deferred[t], fk.column)
			default:
				if err := visit(fk.parent, append(path, t)); err != nil {
					return err
				}
			}
		}
		state[t] = 2
		order = append(order, t)
		return nil
	}
	for _, t := range tables {
		if state[t] == 0 {
			if err := visit(t, nil); err != nil {
				return nil, nil, err
			}
		}
	}
	return order, deferred, nil
}

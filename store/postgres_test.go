package store_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"atril/store"
	"atril/store/storetest"
)

// PostgresEnv names the environment variable holding the connection
// string of a PostgreSQL database for the tests (.ci/install-postgres.sh
// sets it).
const PostgresEnv = "ATRIL_PG_DSN"

func TestPostgres(t *testing.T) {
	dsn := os.Getenv(PostgresEnv)
	if dsn == "" {
		t.Skip("PostgreSQL store NOT tested: set " + PostgresEnv + " to a database's connection string (source .ci/install-postgres.sh)")
	}
	// Each run uses fresh game ids, so a database shared between runs
	// needs no cleaning.
	prefix := fmt.Sprintf("t%d-", time.Now().UnixNano())
	storetest.Run(t, func(t *testing.T) store.Store {
		s, err := store.OpenPostgres(context.Background(), dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}, prefix)
}

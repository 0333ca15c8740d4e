// Command s3-store is the kubespaces test bed's S3-compatible object store: gofakes3's server over
// its bolt backend (one file under the run dir), with one bucket made at start. Tenants' snapshots
// go there, as they would go to a platform's MinIO, Ceph or cloud bucket. It speaks the S3 API that
// vCluster's snapshot client (aws-sdk-go-v2) uses, path-style, over plain HTTP on the loopback, and
// checks no signature: any access key is accepted, which is why it is the test bed's only.
//
//	s3-store --listen 127.0.0.1:PORT --db FILE --bucket NAME
package main

import (
	"flag"
	"log"
	"net/http"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3bolt"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:9000", "the address to serve the S3 API on")
	db := flag.String("db", "s3-store.db", "the bolt file that holds the objects")
	bucket := flag.String("bucket", "kubespaces-snapshots", "the bucket to make at start, if missing")
	flag.Parse()
	backend, err := s3bolt.NewFile(*db)
	if err != nil {
		log.Fatalf("s3-store: open %s: %v", *db, err)
	}
	if err := backend.CreateBucket(*bucket); err != nil && !gofakes3.IsAlreadyExists(err) {
		log.Fatalf("s3-store: bucket %s: %v", *bucket, err)
	}
	log.Printf("s3-store: bucket %s on http://%s", *bucket, *listen)
	log.Fatal(http.ListenAndServe(*listen, gofakes3.New(backend).Server()))
}

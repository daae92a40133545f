ALTER TABLE "roster_sources" ADD COLUMN "sftp_host_key" varchar(100);

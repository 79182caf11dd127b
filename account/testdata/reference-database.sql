-- The reference server's own Database.sql, in the form its operators have:
-- it creates the database, switches to it, creates the table and inserts the
-- seed's users with MD5('...') expressions (MySQL hashes them on insert).
create database if not exists bomber default character set utf8;
use bomber;

drop table if exists account;
CREATE TABLE account (
    username varchar(30) NOT NULL,
    password char(32) NOT NULL,
    PRIMARY KEY (username)
) ENGINE=InnoDB DEFAULT CHARSET=utf8;

insert into account values ('Novate', MD5('123'));
insert into account values ('Twofyw', MD5('123'));
insert into account values ('Larry', MD5('123'));
insert into account values ('Albert', MD5('123'));
insert into account values ('Beth', MD5('123'));
insert into account values ('Cindy', md5("123"));
insert into account (password, username) values (MD5('s3cret'), 'Dora');

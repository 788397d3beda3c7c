-- gametree 0.2.0 -> 0.3.0: upgrade script
\echo Use "ALTER EXTENSION gametree UPDATE TO '0.3.0'" to load this file. \quit

/*
 * http.h: the little HTTP a General Game Playing player serves: one
 * request per connection (HTTP/1.0 or 1.1), its body read by its
 * Content-Length, and a plain-text reply with the CORS headers that
 * ggp-base's players send, after which the connection is closed.
 */
#ifndef GT_HTTP_H
#define GT_HTTP_H

#include <stdbool.h>
#include <stddef.h>

/* The listening sockets of ADDR (NULL: IPv4 and IPv6 loopback) and port; how many, or -1 after reporting why none. */
int			http_listen(const char *addr, int port, int *fds, int max);

typedef struct HttpRequest
{
	char		method[16];
	char	   *body;			/* terminated; body_len bytes */
	size_t		body_len;
} HttpRequest;

/*
 * Reads one request from fd within seconds.  Returns 0 when it was read,
 * the HTTP status to answer with when it is refused (400, 411, 413, 501),
 * or -1 when the peer closed the connection or went silent: nobody to
 * answer.  error says why it was not read.
 */
int			http_read_request(int fd, HttpRequest *req, size_t max_body, double seconds,
							  char *error, size_t errlen);
void		http_request_free(HttpRequest *req);
/* Writes the reply; false when the peer is gone. */
bool		http_reply(int fd, int status, const char *body);

#endif

// The floor under the room benchmarks: the CPU one loopback TCP write costs the writing process
// on this machine (the kernel charges the receive side of loopback to the sender). N connected
// pairs, a reader thread draining them with epoll, the writer sending SIZE bytes to each in turn
// ROUNDS times; prints the writer thread's CPU per write. Loopback only, bounded, stops by itself.
//   gcc -O2 -o /tmp/loopback loadtest/bench/loopback.c -lpthread && /tmp/loopback 2000 1000 20

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <time.h>
int N, SZ, ROUNDS;
int *wfd, *rfd;
volatile int done=0;
void *reader(void *a){
  int ep=epoll_create1(0);
  for(int i=0;i<N;i++){struct epoll_event e={.events=EPOLLIN,.data.fd=rfd[i]};epoll_ctl(ep,EPOLL_CTL_ADD,rfd[i],&e);}
  char buf[65536]; struct epoll_event ev[256];
  while(!done){int n=epoll_wait(ep,ev,256,100);for(int i=0;i<n;i++){while(read(ev[i].data.fd,buf,sizeof buf)>0);}}
  return 0;
}
double tcpu(){struct rusage r;getrusage(RUSAGE_THREAD,&r);return r.ru_utime.tv_sec+r.ru_stime.tv_sec+(r.ru_utime.tv_usec+r.ru_stime.tv_usec)/1e6;}
int main(int c,char**v){
  N=atoi(v[1]);SZ=atoi(v[2]);ROUNDS=atoi(v[3]);
  wfd=malloc(N*4);rfd=malloc(N*4);
  int l=socket(AF_INET,SOCK_STREAM,0);struct sockaddr_in a={.sin_family=AF_INET,.sin_addr.s_addr=htonl(0x7f000001)};
  bind(l,(void*)&a,sizeof a);listen(l,4096);socklen_t al=sizeof a;getsockname(l,(void*)&a,&al);
  for(int i=0;i<N;i++){wfd[i]=socket(AF_INET,SOCK_STREAM,0);connect(wfd[i],(void*)&a,sizeof a);rfd[i]=accept(l,0,0);fcntl(rfd[i],F_SETFL,O_NONBLOCK);int one=1;setsockopt(wfd[i],IPPROTO_TCP,TCP_NODELAY,&one,4);}
  pthread_t t;pthread_create(&t,0,reader,0);
  char *buf=calloc(1,SZ);
  struct timespec t0,t1;clock_gettime(CLOCK_MONOTONIC,&t0);double c0=tcpu();
  for(int r=0;r<ROUNDS;r++){for(int i=0;i<N;i++)write(wfd[i],buf,SZ);}
  double c1=tcpu();clock_gettime(CLOCK_MONOTONIC,&t1);
  double wall=(t1.tv_sec-t0.tv_sec)+(t1.tv_nsec-t0.tv_nsec)/1e9;
  printf("N=%d size=%d sends=%d writer cpu %.2f us/send, wall %.2f us/send\n",N,SZ,N*ROUNDS,(c1-c0)/(N*ROUNDS)*1e6,wall/(N*ROUNDS)*1e6);
  done=1;pthread_join(t,0);return 0;}


(function(){
var D=null,board=document.getElementById("board"),slider=document.getElementById("slider"),
    where=document.getElementById("where"),items=document.querySelectorAll("#moves li"),
    playing=null,now=-1;
function svg(i){var f=D.frames[i],w=f[0],h=f[1],out=[];
  for(var k=0;k<f[2].length;k++){out.push(D.parts[f[2][k]]);}
  return '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" '+
    'width="'+w+'" height="'+h+'" viewBox="0 0 '+w+' '+h+'" '+D.font+'><rect width="'+w+'" height="'+h+
    '" fill="#fbf8f1"/>'+D.defs+out.join("")+'</svg>';}
function show(i){if(!D){return;}i=Math.max(0,Math.min(D.frames.length-1,i));if(i===now){return;}now=i;
  board.innerHTML=svg(i);slider.value=i;where.textContent=D.labels[i];
  for(var k=0;k<items.length;k++){items[k].className=(k+1===i)?"now":"";}
  if(i>0&&items[i-1].scrollIntoView){items[i-1].scrollIntoView({block:"nearest"});}
  document.body.setAttribute("data-frame",String(i));
  if(history.replaceState){try{history.replaceState(null,"",i?"#"+i:location.pathname+location.search);}catch(e){}}}
function stop(){if(playing){clearInterval(playing);playing=null;document.getElementById("play").textContent="play";}}
function play(){if(playing){stop();return;}if(now>=D.frames.length-1){show(0);}
  document.getElementById("play").textContent="pause";
  playing=setInterval(function(){if(now>=D.frames.length-1){stop();}else{show(now+1);}},700);}
document.getElementById("first").onclick=function(){stop();show(0);};
document.getElementById("prev").onclick=function(){stop();show(now-1);};
document.getElementById("next").onclick=function(){stop();show(now+1);};
document.getElementById("last").onclick=function(){stop();show(D.frames.length-1);};
document.getElementById("play").onclick=play;
slider.oninput=function(){stop();show(parseInt(slider.value,10));};
for(var k=0;k<items.length;k++){(function(k){items[k].onclick=function(){stop();show(k+1);};})(k);}
document.addEventListener("keydown",function(e){
  if(e.target&&e.target.tagName==="INPUT"&&e.target.type!=="range"){return;}
  var k=e.key;
  if(k==="ArrowRight"||k==="ArrowDown"){stop();show(now+1);}
  else if(k==="ArrowLeft"||k==="ArrowUp"){stop();show(now-1);}
  else if(k==="Home"){stop();show(0);} else if(k==="End"){stop();show(D.frames.length-1);}
  else if(k===" "){play();} else {return;}
  e.preventDefault();});
function start(text){D=JSON.parse(text);slider.disabled=false;now=-1;
  var m=/^#([0-9]+)$/.exec(location.hash);show(m?parseInt(m[1],10):0);}
var packed=document.getElementById("replay-data").textContent.replace(/\s+/g,"");
if(typeof DecompressionStream==="undefined"){where.textContent="this browser cannot unpack the replay "+
  "(it lacks DecompressionStream): the first position only";return;}
var raw=atob(packed),bytes=new Uint8Array(raw.length);
for(var k=0;k<raw.length;k++){bytes[k]=raw.charCodeAt(k);}
new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text().then(start,
  function(e){where.textContent="cannot unpack the replay: "+e;});
})();

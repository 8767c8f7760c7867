console.log('mnesos cli');
